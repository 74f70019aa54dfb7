public import Failures

/// A write transaction that began from what this process's last one left, without waiting for
/// the store's lock (`EventStoreWriter.writeAhead` on PostgreSQL), found when the lock was
/// granted that another transaction had committed first (another process's, or none at all:
/// the one it followed failed). Nothing of it was committed; it runs again from what the store
/// holds (a group commit's batch runs again as a whole).
public struct StaleStart: KindedError, Sendable, CustomStringConvertible {
    public let kind = FailureKind.temporary

    public init() {}

    public var description: String {
        "another write committed before this one, which had begun from what this process's last write left: nothing of it was committed"
    }
}
