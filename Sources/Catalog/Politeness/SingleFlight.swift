/// Identical requests in flight at the same time share one trip: the first caller does the work,
/// later callers with the same key wait for its result (or its error).
public actor SingleFlight {
    private var inFlight: [String: Task<any Sendable, any Error>] = [:]
    public init() {}

    /// Runs `work` for `key`, or waits for the run already in flight for it (calling `onJoin`).
    public func run<T: Sendable>(
        _ key: String, onJoin: @Sendable () -> Void = {}, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        if let task = inFlight[key] {
            onJoin()
            return try await task.value as! T
        }
        let task = Task<any Sendable, any Error> { try await work() }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        return try await task.value as! T
    }
}
