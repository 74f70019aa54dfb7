import EventLog
import Ledger

/// One account's move between shards (`reel store move`), or that it is home already.
public struct AccountMoveReport: Sendable, Equatable {
    public let handle: AccountHandle
    public let stream: StreamID?
    /// The shard it left; `nil` when it was on its home shard already (nothing moved).
    public let from: String?
    /// Its home shard, where it is now.
    public let to: String
    /// How many events moved (its events before `account-moved-out`).
    public let events: UInt64
    /// The digest both sides name (`MovedEnvelopes.digest`), 64 hex digits.
    public let digest: String?
    /// Where `account-moved-out` is on the source, and `account-moved-in` on the target.
    public let movedOutPosition: UInt64?
    public let movedInPosition: UInt64?
    /// Whether an earlier, interrupted run had done some of the steps.
    public let resumed: Bool
    /// Whether the purge after the key's destruction on the source ran (PostgreSQL: the key's
    /// bytes are gone from the server's files); `purgeProblem` says why not.
    public var keyPurged: Bool = true
    public var purgeProblem: String?

    public var alreadyHome: Bool { from == nil }

    @_spi(Stores) public init(
        handle: AccountHandle, stream: StreamID?, from: String?, to: String, events: UInt64, digest: String?, movedOutPosition: UInt64?,
        movedInPosition: UInt64?, resumed: Bool, keyPurged: Bool = true, purgeProblem: String? = nil
    ) {
        self.handle = handle
        self.stream = stream
        self.from = from
        self.to = to
        self.events = events
        self.digest = digest
        self.movedOutPosition = movedOutPosition
        self.movedInPosition = movedInPosition
        self.resumed = resumed
        self.keyPurged = keyPurged
        self.purgeProblem = purgeProblem
    }
}
