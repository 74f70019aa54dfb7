@_spi(Stores) import EventLog
import Files
import Failures
import Ledger

extension Application {
    /// The account `handle` names, which a deletion is about to delete: not found when there is
    /// none or it is deleted already (said so, with when); unavailable while it moves between
    /// shards (before anything is done: its tokens stay as they are).
    public func accountToDelete(_ handle: AccountHandle) throws -> AccountView {
        do {
            let view = try view(of: handle)
            if view.state.status == .moved { throw DomainError.accountMoved(handle.value) }
            return view
        } catch ReelError.noAccount {
            throw Failure(.notFound, "there is no account '\(handle)'")
        } catch ReelError.accountDeleted(_, let time) {
            throw Failure(.notFound, "the account '\(handle)' is deleted already (on \(UTCTime.iso(time)))")
        }
    }

    /// Deletes the account for good: its tokens are revoked and exports of it killed while being
    /// written go first (their plaintext), then the deletion event closes its stream and its key
    /// is destroyed; the response cache goes whole, and the tokens' records too. `step` names each
    /// step as it is reached.
    public func deleteAccount(_ handle: AccountHandle, step: (DeletionStep) -> Void = { _ in }) throws -> DeletionReport {
        guard let stream = try accountToDelete(handle).stream else { throw Failure(.notFound, "there is no account '\(handle)'") }
        return try deleteAccount(BoundAccount(handle, stream: stream), step: step)
    }

    /// The same for `account` as its caller was bound to it (a token's account, the account the
    /// terminal app showed): deleted only if the handle still names that account when the
    /// deletion is written (`BoundAccount`), else not found with nothing done, not even a token
    /// revoked.
    public func deleteAccount(_ account: BoundAccount, step: (DeletionStep) -> Void = { _ in }) throws -> DeletionReport {
        let handle = account.handle
        guard let stream = try accountToDelete(handle).stream else { throw Failure(.notFound, "there is no account '\(handle)'") }
        guard account.stream == nil || account.stream == stream else { throw ReelError.accountGone(handle.value) }
        let bound = BoundAccount(handle, stream: stream)
        // Revoked before the deletion, not only removed after it: a crash between its commit and
        // the removal then leaves no live token of a deleted account, which would reach the next
        // account opened under the freed handle. Should the deletion fail, they stay revoked.
        try revokeTokens(of: stream)
        PendingExports(dataDirectory: configuration.dataDirectory).sweep(stream: stream.rawValue)
        let started = ContinuousClock.now
        var purged = false
        let report = try record(.deleteAccount, for: bound) { reached in
            if reached == .keyStoreRewritten { purged = true }
            step(reached)
        }
        let elapsed = (ContinuousClock.now - started).components
        guard let deleted = report.appended.last else {
            throw Failure(.storage, "the account '\(handle)' was not deleted")
        }
        // Right after the commit, the tokens' records go (the write checked that the handle still
        // named `stream`: that is the account deleted).
        do {
            try removeTokens(of: [stream])
        } catch let error as any KindedError {
            throw Failure(error.kind, "the account '\(handle)' was deleted (its tokens are revoked), but their records could not be removed: \(error.summary)")
        }
        var deletion = DeletionReport(
            handle: handle, stream: stream, deletedAt: deleted.recordedAt, position: deleted.position, events: deleted.streamVersion,
            seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        do {
            deletion.receipt = try inclusionProof(position: deleted.position, in: try ledger(for: handle).log).text
        } catch {
            deletion.receiptProblem = (error as? any KindedError)?.summary ?? "\(error)"
        }
        if !purged {
            deletion.keyPurged = false
            deletion.purgeProblem = (try? ledger(for: handle).log as? any DeferredPurging)??.purgeProblem ?? "the purge did not run"
        }
        return deletion
    }
}
