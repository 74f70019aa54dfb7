/// The store boundary: Reel's event log as any backend keeps it, in three parts a use case can
/// ask for alone: reading (`EventStoreReader`), writing (`EventStoreWriter`), and the per-stream
/// keys with the data sealed under them (`StreamKeyStore`). `EventLog` is the embedded LMDB
/// store; a PostgreSQL store implements the same contract, and `EventStoreContract` (in the
/// tests) proves each one against it.
///
/// What every store promises:
/// - Global positions start at 1 and run on without a gap, in commit order.
/// - A stream is one account; its versions start at 1 and run on without a gap.
/// - An append is atomic: all of its events are stored, or none.
/// - An event id is stored once: appending a request whose ids are all stored already, in that
///   stream and in that order, appends nothing and answers the original positions (a retry).
/// - Payloads are sealed under the stream's own key; destroying the key (shredding) leaves the
///   envelopes and the hash chain verifiable and the payloads unreadable.
/// - Projections kept with the log (`ProjectionTable`) change in the log's own write
///   transaction (`write`), so they never run ahead of the log or behind it.
///
/// Errors are `EventLogError`s where the log is concerned (`wrongExpectedVersion`,
/// `brokenChain`, `storage`, ...); errors thrown by a caller's closure reach the caller as thrown.
///
/// ```swift
/// let store: any EventStore = try EventLog.open(at: dataDirectory)
/// try store.write { w in
///     let recorded = try w.append(events, to: stream, expected: .noStream)
///     try w.table(checkpoints).put(Array("checkpoint".utf8), bytes(of: recorded.last!.position))
/// }
/// ```
public protocol EventStore: EventStoreWriter, StreamKeyStore {}
