/// The log from a position to its end, read a batch at a time (see `EventLog.events(from:)`); the
/// next batch is read while the consumer takes this one, so at most two batches are in memory.
public struct EventBatches: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent
    let log: EventLog
    let start: UInt64
    let batchSize: Int

    public struct AsyncIterator: AsyncIteratorProtocol {
        let log: EventLog
        var next: UInt64
        let batchSize: Int
        var buffer: [RecordedEvent] = []
        var index = 0
        var finished = false
        /// The next batch, read (in a snapshot of its own) while the consumer works through this one.
        var ahead: Task<[RecordedEvent], any Error>?

        public mutating func next() async throws -> RecordedEvent? {
            if index == buffer.count {
                guard !finished else { return nil }
                try Task.checkCancellation()
                if let ahead {
                    buffer = try await ahead.value
                    self.ahead = nil
                } else {
                    buffer = try log.read(from: next, maxCount: batchSize)
                }
                index = 0
                if buffer.count < batchSize { finished = true }
                guard let last = buffer.last else { return nil }
                next = last.position + 1
                if !finished {
                    let (log, from, size) = (log, next, batchSize)
                    ahead = Task.detached { try log.read(from: from, maxCount: size) }
                }
            }
            defer { index += 1 }
            return buffer[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(log: log, next: Swift.max(start, 1), batchSize: Swift.max(batchSize, 1))
    }
}
