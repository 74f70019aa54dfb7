import EventLog
import Ledger

/// What `reel projections rebuild` found and did.
public struct RebuildReport: Sendable {
    /// One difference between the live projections and a replay of the log.
    public struct Drift: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// The replay has an account the live projections lack.
            case missing
            /// The live projections have an account the replay does not.
            case unexpected
            /// Both have it, with different states.
            case differs
            /// The handle directory disagrees.
            case handle
            /// The live checkpoint is not the log's head.
            case checkpoint
        }
        public let kind: Kind
        public let subject: String
        public let detail: String
    }

    public let events: UInt64
    public let accounts: Int
    public let checkpoint: UInt64
    public let drift: [Drift]
    /// Whether the rebuilt projections replaced the live ones (never with `--check`).
    public let swapped: Bool
    public let seconds: Double

    /// Events replayed per second (0 when the replay took no measurable time).
    public var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }
}
