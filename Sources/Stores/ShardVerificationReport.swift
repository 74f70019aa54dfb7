public import EventLog
/// What `reel audit verify` found in every shard of a shard map (`Schemas/postgres-shards.md`).
public struct ShardVerificationReport: Sendable {
    public struct Shard: Sendable {
        public let name: String
        /// The shard's store URL without its password.
        public let store: String
        public let report: VerificationReport
        /// Streams this shard holds that the map places on another shard.
        public let misplaced: [String]

        public var isIntact: Bool { report.isIntact && misplaced.isEmpty }
    }

    public let shards: [Shard]
    /// The checkpoint of every shard's head (`ShardMap.checkpoint`); `nil` when one is not intact.
    public let checkpoint: String?
    /// The checkpoint `--expect-head` gave, when it differs from the one found.
    public let expectedCheckpoint: String?

    public var events: UInt64 { shards.reduce(0) { $0 + $1.report.eventsChecked } }
    public var isIntact: Bool { shards.allSatisfy(\.isIntact) && expectedCheckpoint == nil }
}
