@_spi(Stores) import EventLog

/// What this process's last write transaction left of the rows it read or wrote (its
/// `ProjectionOverlay`'s projection rows and its streams' versions), for the next write
/// transaction of the process to start from instead of reading them again: kept once its
/// `COMMIT` is sent (`PostgresEventStore.writeAhead`), forgotten should that fail.
///
/// Sound because of `reel_head.generation` (`Schemas/postgres-layout.md`): every write
/// transaction that writes anything sets it to a new random value while it holds `reel_head`'s
/// row, which every writer of projection rows and streams holds. A transaction that finds, once
/// it holds the row, the generation this memory was left at knows that nobody has written since:
/// every row kept here is what the server holds. At any other generation (another process wrote, or a
/// transaction of this one whose commit was not seen) it is not used.
struct WriteMemory: Sendable {
    /// `reel_head.generation` as the transaction committed it.
    let generation: Int64
    /// The head and the Merkle tree's edge as it left them.
    let head: LogHead?
    let frontier: TreeFrontier
    /// Per table: each key's value, `nil` for a key read absent (the rows the transaction deleted
    /// are not kept: `ProjectionOverlay.keptForNext`).
    let projections: [String: [[UInt8]: [UInt8]?]]
    /// Streams' versions and whether they are closed.
    let streams: [StreamID: (version: UInt64, closed: Bool)]
    /// Whether the transaction closed a stream without destroying its key: the next write then
    /// looks for closed streams whose key lives (`PostgresWrite.finishPendingDestruction`).
    let closedWithKeys: Bool

    /// Rows kept at most: past it, the projection rows are not kept (the next transaction reads
    /// what it needs), so a process that touches many accounts does not hold them all.
    static let maximumRows = 20_000

    /// Whether `projections` is small enough to keep.
    static func fits(_ projections: [String: [[UInt8]: [UInt8]?]]) -> Bool {
        projections.values.reduce(0) { $0 + $1.count } <= maximumRows
    }
}
