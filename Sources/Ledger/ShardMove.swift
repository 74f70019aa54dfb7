/// What an account's move between shards (`reel store move`) records on each side: the other
/// shard's name, how many of the stream's events moved (versions 1 through `events`), and the
/// SHA-256 of those events as stored (`moveDigest`: ids, versions, types, times first recorded
/// and sealed payloads), which both sides must agree on. The side that receives the account also
/// names where the sending shard's chain closed the account (position and hash of its
/// `account-moved-out` event).
public struct ShardMove: Sendable, Hashable {
    public let shard: String
    public let events: UInt64
    /// 64 lowercase hex digits.
    public let digest: String
    /// On `account-moved-in` only: the `account-moved-out` event's place on the other shard.
    public let closedAt: ClosingEvent?

    public struct ClosingEvent: Sendable, Hashable {
        public let position: UInt64
        /// 64 lowercase hex digits.
        public let hash: String

        public init(position: UInt64, hash: String) {
            self.position = position
            self.hash = hash
        }
    }

    public init(shard: String, events: UInt64, digest: String, closedAt: ClosingEvent? = nil) {
        self.shard = shard
        self.events = events
        self.digest = digest
        self.closedAt = closedAt
    }

    /// A shard's name as a shard map allows it: 1 to 64 of `a-z 0-9 - _`.
    static func isShardName(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d || $0 == 0x5f }
    }

    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
