import EventLog
import Ledger

/// A command decided inside a write transaction, before anything of it is written: either settled
/// (nothing to append: it changes nothing, or it is a retry answered from the log), or the events
/// to append. Deciding only reads, so a command that fails to decide leaves the transaction as it
/// was, and the other commands of a batch go on (`CommandCommitter`).
enum CommandPlan {
    case settled(CommandReport)
    case append(Appending)

    struct Appending {
        let request: CommandRequest
        /// The account's stream: its own, or a new one the first event opens.
        let stream: StreamID
        let isNew: Bool
        let state: AccountState?
        let decision: Decision
        let proposed: [ProposedEvent]

        /// The version the append expects its stream at: none for a new account.
        var expected: ExpectedVersion { isNew ? .noStream : .exact(state?.version ?? 0) }

        /// Whether its append may share one batch of appends with others (`append(batch:)`): not
        /// a deletion (it closes the stream and destroys its key after its append), nor a photo
        /// (its bytes are sealed beside it); both run alone anyway.
        var joinsBatch: Bool { !request.runsAlone && decision.events.last != .accountDeleted }
    }
}
