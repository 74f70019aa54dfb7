/// A counting semaphore for requests in flight: at most `limit` at once, one per connection.
/// Waiters are served first come, first served, except that urgent ones (what the user is
/// looking at) go before all others waiting (bulk work filling a list).
public actor RequestSlots {
    public nonisolated let limit: Int
    private var inUse = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var urgentWaiters: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int) { self.limit = max(1, limit) }

    /// How many wait for a slot: urgent ones, and the others (what a test waits for before it
    /// frees one).
    var waiting: (urgent: Int, others: Int) { (urgentWaiters.count, waiters.count) }

    public func acquire(urgent: Bool = false) async {
        if inUse < limit {
            inUse += 1
            return
        }
        await withCheckedContinuation { continuation in
            if urgent { urgentWaiters.append(continuation) } else { waiters.append(continuation) }
        }
    }

    public func release() {
        if !urgentWaiters.isEmpty {
            urgentWaiters.removeFirst().resume()
        } else if !waiters.isEmpty {
            waiters.removeFirst().resume()
        } else {
            inUse -= 1
        }
    }

    /// Runs `body` holding one slot.
    public nonisolated func withSlot<T: Sendable>(urgent: Bool = false, _ body: @Sendable () async throws -> T) async throws -> T {
        await acquire(urgent: urgent)
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }
}
