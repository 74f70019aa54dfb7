import Failures

/// A catch-up subscription (see `EventStore.subscribe(from:batchSize:)`): history, `.caughtUp`,
/// then live events.
///
/// Live events come as soon as this process commits them, and when another process does: within
/// the poll interval (LMDB), or when the store's notification arrives (PostgreSQL's `NOTIFY`, with
/// the poll interval as a floor). Batches are read in short read transactions, never held across
/// an `await`. A store whose positions are given in commit order (both are) never has a
/// subscriber skip an event that commits late: nothing after it is visible before it.
public struct Subscription: AsyncSequence, Sendable {
    public typealias Element = SubscriptionMessage
    let read: @Sendable (_ from: UInt64, _ maxCount: Int) throws -> [RecordedEvent]
    let signal: CommitSignal
    let pollInterval: Duration
    package let start: UInt64
    let batchSize: Int

    /// A subscription reading with `read` from `start`, woken by `signal` or after `pollInterval`.
    @_spi(Stores) public init(
        from start: UInt64, batchSize: Int, signal: CommitSignal, pollInterval: Duration,
        read: @escaping @Sendable (_ from: UInt64, _ maxCount: Int) throws -> [RecordedEvent]
    ) {
        self.read = read
        self.signal = signal
        self.pollInterval = pollInterval
        self.start = start
        self.batchSize = batchSize
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: Subscription
        var next: UInt64
        var buffer: [RecordedEvent] = []
        var index = 0
        var caughtUp = false
        /// Reads failed in a row for a reason that passes (a store restarting).
        var failures = 0
        /// How many such failures in a row are waited out (a poll interval each) before the
        /// subscription fails.
        static let failuresWaitedOut = 30

        public mutating func next() async throws -> SubscriptionMessage? {
            while true {
                if index < buffer.count {
                    defer { index += 1 }
                    return .event(buffer[index])
                }
                if Task.isCancelled { return nil }
                // Read the generation before the log, so a commit in between is not slept through.
                let generation = subscription.signal.generation
                do {
                    buffer = try subscription.read(next, subscription.batchSize)
                    failures = 0
                } catch let error as any KindedError where (error.kind == .unavailable || error.kind == .temporary) && failures < Self.failuresWaitedOut {
                    // A store that went away for a moment (a server restarting): read again later,
                    // from the same position, so nothing is missed or repeated.
                    failures += 1
                    buffer = []
                    index = 0
                    try await Task.sleep(for: subscription.pollInterval)
                    continue
                }
                index = 0
                if let last = buffer.last {
                    next = last.position + 1
                    continue
                }
                if !caughtUp {
                    caughtUp = true
                    return .caughtUp
                }
                await subscription.signal.wait(after: generation, timeout: subscription.pollInterval)
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: self, next: Swift.max(start, 1))
    }
}
