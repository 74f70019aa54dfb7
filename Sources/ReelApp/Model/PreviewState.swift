public import Reel

/// The preview pane's memory: the title the cursor is on (`wanted`, with a generation that
/// changes as it moves, so the wait for the cursor to stop is told from an older one), the title
/// it rested on (`settled`), and the details asked for, by title: loading, loaded or failed. The
/// poster and the details are asked for only once the cursor rests on a title
/// (`PreviewEffect.settleMilliseconds`), so holding `j` down a list asks TMDb and its image host
/// for none of the titles passed over. Bounded: past `limit` titles the oldest are forgotten.
public struct PreviewState: Sendable, Equatable {
    public enum Entry: Sendable, Equatable {
        case loading
        case loaded(TitleDetails)
        /// Why there are no details (one line, in words).
        case failed(String)
    }

    /// The title under the cursor where the pane shows, as last seen.
    public var wanted: MediaKey?
    /// Changes whenever `wanted` does; a wait that ends with an older one is moot.
    public var generation = 0
    /// The title the cursor rested on: its poster shows, its details are asked for.
    public var settled: MediaKey?
    public private(set) var entries: [MediaKey: Entry] = [:]
    /// The keys of `entries`, the oldest asked for first.
    private var order: [MediaKey] = []

    public static let limit = 100

    public init() {}

    public subscript(key: MediaKey) -> Entry? { entries[key] }

    /// Marks `key` as loading; false when it is known already (loading, loaded or failed).
    mutating func request(_ key: MediaKey) -> Bool {
        guard entries[key] == nil else { return false }
        entries[key] = .loading
        order.append(key)
        while order.count > Self.limit {
            let oldest = order.removeFirst()
            entries[oldest] = nil
        }
        return true
    }

    /// The answer for `key`; details loaded elsewhere (the details screen) are kept too.
    mutating func answer(_ key: MediaKey, _ entry: Entry) {
        if entries[key] == nil {
            guard case .loaded = entry else { return }
            _ = request(key)
        }
        entries[key] = entry
    }

    /// Forgets a failure, so the details are asked for again (`r`).
    mutating func forgetFailure(_ key: MediaKey) {
        guard case .failed? = entries[key] else { return }
        entries[key] = nil
        order.removeAll { $0 == key }
    }
}
