import Files
import Failures
import Ledger

extension Application {
    /// The account `handle` names, which a deletion is about to delete: not found when there is
    /// none or it is deleted already (said so, with when).
    public func accountToDelete(_ handle: AccountHandle) throws -> AccountView {
        do {
            return try view(of: handle)
        } catch ReelError.noAccount {
            throw Failure(.notFound, "there is no account '\(handle)'")
        } catch ReelError.accountDeleted(_, let time) {
            throw Failure(.notFound, "the account '\(handle)' is deleted already (on \(UTCTime.iso(time)))")
        }
    }

    /// Deletes the account for good: exports of it killed while being written go first (their
    /// plaintext), then the deletion event closes its stream and its key is destroyed; the
    /// response cache goes whole. `step` names each step as it is reached.
    public func deleteAccount(_ handle: AccountHandle, step: (DeletionStep) -> Void = { _ in }) throws -> DeletionReport {
        guard let stream = try accountToDelete(handle).stream else { throw Failure(.notFound, "there is no account '\(handle)'") }
        PendingExports(dataDirectory: configuration.dataDirectory).sweep(stream: stream.rawValue)
        let started = ContinuousClock.now
        let report = try record(.deleteAccount, for: handle, step: step)
        let elapsed = (ContinuousClock.now - started).components
        guard let deleted = report.appended.last else {
            throw Failure(.storage, "the account '\(handle)' was not deleted")
        }
        return DeletionReport(
            handle: handle, stream: stream, deletedAt: deleted.recordedAt, position: deleted.position, events: deleted.streamVersion,
            seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }
}
