import Ledger

/// One command as a front end asks for it: for whom, under which idempotency key (if any), and the
/// photo's bytes for `.changePhoto`.
struct CommandRequest: Sendable {
    let command: Command
    let handle: AccountHandle
    let key: RequestKey?
    let photo: [UInt8]?

    /// Deleting an account (a key store rewritten around the commit) and setting a photo (megabytes
    /// sealed in the transaction) each take a write transaction of their own: batched, they would
    /// hold every other command's answer back.
    var runsAlone: Bool {
        switch command {
        case .deleteAccount, .changePhoto: true
        default: false
        }
    }
}
