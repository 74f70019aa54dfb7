/// One event of the account's history as the Saved tab shows it (`h`, and the line time travel
/// shows): its stream version, its time on the local clock, and what happened in words (as
/// `reel history` says it, naming the title).
public struct HistoryLine: Sendable, Equatable {
    public var version: UInt64
    public var position: UInt64
    /// When it was recorded, as the local wall clock reads, in microseconds counted as if that
    /// reading were UTC: a typed date or time is compared with it (`TypedPoint`).
    public var wall: Int64
    /// `2026-11-24 07:24`.
    public var time: String
    /// `removed movie 603 The Matrix (1999)`.
    public var summary: String

    public init(version: UInt64, position: UInt64, wall: Int64, time: String, summary: String) {
        self.version = version
        self.position = position
        self.wall = wall
        self.time = time
        self.summary = summary
    }

    /// `as of v12 — 2026-11-24 07:24 — removed movie 603 The Matrix (1999)`.
    public var asOfLine: String { "as of v\(version) — \(time) — \(summary)" }
}
