/// Identical requests in flight at the same time share one trip: the first caller does the work,
/// later callers with the same key wait for its result (or its error).
///
/// A flight is known by its key and by the type of its result, so two callers asking the same
/// URL for different types (a title's details and its summary) each get a flight of their own,
/// and a joiner always finds a task of exactly its type.
public actor SingleFlight {
    private struct Flight: Hashable {
        let type: ObjectIdentifier
        let key: String
    }

    /// Each value is the `Task<T, any Error>` whose `T` the flight's `type` names.
    private var inFlight: [Flight: any Sendable] = [:]
    public init() {}

    /// Runs `work` for `key`, or waits for the run already in flight for it (calling `onJoin`).
    public func run<T: Sendable>(
        _ key: String, onJoin: @Sendable () -> Void = {}, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let flight = Flight(type: ObjectIdentifier(T.self), key: key)
        if let task = inFlight[flight] as? Task<T, any Error> {
            onJoin()
            return try await task.value
        }
        let task = Task<T, any Error> { try await work() }
        inFlight[flight] = task
        defer { inFlight[flight] = nil }
        return try await task.value
    }
}
