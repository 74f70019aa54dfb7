import Synchronization

/// How many event streams each token has open.
final class StreamCounter: Sendable {
    private let counts = Mutex([String: Int]())

    func open(_ token: String, limit: Int) -> Bool {
        counts.withLock { counts in
            guard counts[token, default: 0] < limit else { return false }
            counts[token, default: 0] += 1
            return true
        }
    }

    func close(_ token: String) {
        counts.withLock { counts in
            counts[token, default: 1] -= 1
            if counts[token] == 0 { counts[token] = nil }
        }
    }
}
