import EventLog

/// How long an answer read from the ledger and the caches stays what it is: while the
/// account's stream is at the same version (and the handle names the same stream), the
/// response cache has not been written (by this process or another), and until `until`, when
/// the first cached details or scores it used go stale. An answer holding work still to do
/// (details or scores missing, a failure to retry) has none: it may differ on the next read.
public struct ReadValidity: Sendable, Hashable {
    /// The stream the handle named when the answer was read (nil: no account yet).
    public let stream: StreamID?
    public let streamVersion: UInt64
    /// `ResponseCache.generation()` when the answer was read (-1: no cache).
    public let cacheGeneration: Int
    /// Microseconds since 1970 (UTC): the answer is not reused from then on.
    public let until: Int64

    public init(stream: StreamID?, streamVersion: UInt64, cacheGeneration: Int, until: Int64) {
        self.stream = stream
        self.streamVersion = streamVersion
        self.cacheGeneration = cacheGeneration
        self.until = until
    }

    /// Whether `current` (a validity read now, its `until` ignored) is the state this answer was
    /// read in, and `now` is before `until`.
    public func holds(against current: ReadValidity, at now: Int64) -> Bool {
        now < until && stream == current.stream && streamVersion == current.streamVersion && cacheGeneration == current.cacheGeneration
    }
}
