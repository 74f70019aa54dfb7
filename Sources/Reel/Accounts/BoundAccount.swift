public import EventLog
public import Ledger

/// An account as a face resolved it: its handle, and the stream (the account) the handle named
/// then. A token is bound to its account's stream when it is made; the terminal app binds the
/// handle it works on when it first resolves it; a command of `reel` when its use case starts.
///
/// A change carries the binding down to the write transaction that appends it, which checks,
/// inside that transaction, that the handle still names that stream and the account is open
/// (`AccountService.checkBinding`): a handle freed by a deletion and opened again is another
/// account, on another stream, which nothing bound to the old one may reach. Every write path
/// (`AccountService.execute`, `CommandCommitter`) decides through the same `plan`, so every face
/// has the check.
public struct BoundAccount: Sendable, Hashable, CustomStringConvertible {
    public let handle: AccountHandle
    /// The stream the handle named when it was resolved; `nil` when it named no open account (a
    /// change may then open one, or act on the one another process opened meanwhile: there was
    /// no earlier account to mistake for it).
    public let stream: StreamID?

    public init(_ handle: AccountHandle, stream: StreamID?) {
        self.handle = handle
        self.stream = stream
    }

    public var description: String { handle.description }
}
