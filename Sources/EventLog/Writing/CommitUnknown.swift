public import Failures

/// A write transaction whose `COMMIT` was sent, and whose answer never came: the connection to
/// the store was lost, or the store stopped answering, after the commit may have been made (or
/// once it was made, before it was durable). It may or may not have been kept, so it is never
/// run again on its own (`BatchQueue.eachAlone`): running it again could do it twice.
public struct CommitUnknown: KindedError, CustomStringConvertible {
    /// The store, as its location reads in errors.
    public let store: String
    public let kind = FailureKind.unavailable

    public init(store: String) {
        self.store = store
    }

    public var description: String {
        "the store \(store) was lost, or stopped answering, before it confirmed the commit: the change may or may not have been kept (read it back before trying again)"
    }
}
