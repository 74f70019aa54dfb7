/// A catch-up subscription (see `EventLog.subscribe(from:)`): history, `.caughtUp`, then live events.
///
/// Live events come as soon as this process commits them, and within the poll interval when another
/// process does. Batches are read in short read transactions, never held across an `await`.
public struct Subscription: AsyncSequence, Sendable {
    public typealias Element = SubscriptionMessage
    let log: EventLog
    let start: UInt64
    let batchSize: Int

    public struct AsyncIterator: AsyncIteratorProtocol {
        let log: EventLog
        var next: UInt64
        let batchSize: Int
        var buffer: [RecordedEvent] = []
        var index = 0
        var caughtUp = false

        public mutating func next() async throws -> SubscriptionMessage? {
            while true {
                if index < buffer.count {
                    defer { index += 1 }
                    return .event(buffer[index])
                }
                if Task.isCancelled { return nil }
                // Read the generation before the log, so a commit in between is not slept through.
                let generation = log.signal.generation
                buffer = try log.read(from: next, maxCount: batchSize)
                index = 0
                if let last = buffer.last {
                    next = last.position + 1
                    continue
                }
                if !caughtUp {
                    caughtUp = true
                    return .caughtUp
                }
                await log.signal.wait(after: generation, timeout: log.pollInterval)
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(log: log, next: Swift.max(start, 1), batchSize: Swift.max(batchSize, 1))
    }
}
