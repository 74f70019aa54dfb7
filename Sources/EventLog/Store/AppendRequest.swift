/// One append of a batch (`EventStoreWrite.append(batch:)`): events for a stream at the version
/// its writer expects.
public struct AppendRequest: Sendable {
    public let events: [ProposedEvent]
    public let stream: StreamID
    public let expected: ExpectedVersion

    public init(events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) {
        self.events = events
        self.stream = stream
        self.expected = expected
    }
}
