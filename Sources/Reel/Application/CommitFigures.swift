/// One write transaction of the batched command path (`Application`'s async changes with a
/// request key), as `Configuration.commitObserver` is told of it once it is committed: what a
/// service's metrics show as group-commit batch sizes and append latency.
public struct CommitFigures: Sendable, Equatable {
    /// The commands the transaction answered (appended, settled, or refused alone).
    public let commands: Int
    /// The events it appended.
    public let events: Int
    /// From the transaction's start to its durable commit (fsync included).
    public let seconds: Double

    public init(commands: Int, events: Int, seconds: Double) {
        self.commands = commands
        self.events = events
        self.seconds = seconds
    }
}
