import EventLog
import Ledger

/// One command as a front end asks for it: for whom (the handle, and the stream the caller was
/// bound to, `BoundAccount`), under which idempotency key (if any), and the photo's bytes for
/// `.changePhoto`.
struct CommandRequest: Sendable {
    let command: Command
    let handle: AccountHandle
    let key: RequestKey?
    let photo: [UInt8]?
    /// The account the caller was bound to: the write that appends checks, in its transaction,
    /// that the handle still names it and it is open (`AccountService.checkBinding`). `nil`:
    /// the handle named no account when the caller resolved it.
    let stream: StreamID?

    init(command: Command, handle: AccountHandle, key: RequestKey?, photo: [UInt8]?, stream: StreamID? = nil) {
        self.command = command
        self.handle = handle
        self.key = key
        self.photo = photo
        self.stream = stream
    }

    init(command: Command, account: BoundAccount, key: RequestKey?, photo: [UInt8]?) {
        self.init(command: command, handle: account.handle, key: key, photo: photo, stream: account.stream)
    }

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
