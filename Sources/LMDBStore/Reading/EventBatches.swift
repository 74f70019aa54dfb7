@_spi(Stores) public import EventLog

/// The log from a position to its end, read a batch at a time (see `EventLog.events(from:)`); the
/// next two batches are read (each in a snapshot of its own) while the consumer takes this one, so
/// at most three batches are in memory.
///
/// Two batches ahead, not one: reading a batch walks the cursor on one thread before its payloads
/// are opened on all the lanes, and the walk of the batch after overlaps that opening (a full
/// read-and-open of 1M events had a core idle a third of the time with one batch ahead).
public struct EventBatches: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent
    let log: EventLog
    let start: UInt64
    let batchSize: Int

    /// Batches read ahead of the one being consumed.
    static let depth = 2

    public struct AsyncIterator: AsyncIteratorProtocol {
        let log: EventLog
        let batchSize: Int
        var buffer: [RecordedEvent] = []
        var index = 0
        var finished = false
        /// Batches being read, in order; each starts where the one before it ends (positions are
        /// gapless, and a full batch ends `batchSize` on).
        var ahead: [Task<[RecordedEvent], any Error>] = []
        /// Where the next batch to start reading begins.
        var nextStart: UInt64

        init(log: EventLog, start: UInt64, batchSize: Int) {
            self.log = log
            self.batchSize = batchSize
            nextStart = start
        }

        public mutating func next() async throws -> RecordedEvent? {
            if index == buffer.count {
                guard !finished else { return nil }
                try Task.checkCancellation()
                if ahead.isEmpty {
                    buffer = try log.read(from: nextStart, maxCount: batchSize)
                    nextStart += UInt64(batchSize)
                } else {
                    buffer = try await ahead.removeFirst().value
                }
                index = 0
                if buffer.count < batchSize {
                    // The end of the log: what is being read beyond it is not wanted.
                    finished = true
                    for task in ahead { task.cancel() }
                    ahead = []
                } else {
                    while ahead.count < EventBatches.depth {
                        let (log, from, size) = (log, nextStart, batchSize)
                        ahead.append(Task.detached { try log.read(from: from, maxCount: size) })
                        nextStart += UInt64(size)
                    }
                }
                guard !buffer.isEmpty else { return nil }
            }
            defer { index += 1 }
            return buffer[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(log: log, start: Swift.max(start, 1), batchSize: Swift.max(batchSize, 1))
    }
}
