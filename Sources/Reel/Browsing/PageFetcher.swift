import Catalog

/// Several pages of a paged TMDb list: the first to learn how many there are, then the rest in
/// parallel (the client keeps within its limits).
enum PageFetcher {
    /// One page's rows and TMDb's totals.
    struct Slice<Item: Sendable>: Sendable {
        let results: [Item]
        let totalPages: Int
        let totalResults: Int

        init<Row>(_ page: Page<Row>, _ transform: (Row) -> Item) {
            results = page.results.map(transform)
            totalPages = page.totalPages
            totalResults = page.totalResults
        }

        /// The last page that can be asked for: `totalPages`, capped at TMDb's 500.
        var lastReachablePage: Int { min(totalPages, Paging.lastPage) }
    }

    /// Pages `first` to `first + count - 1` (as far as there are pages), in order; `progress`
    /// (done, total) is told of each page when there is more than one to fetch.
    static func fetch<Item: Sendable>(
        from first: Int, count: Int, progress: ((Int, Int) -> Void)?, _ fetch: @escaping @Sendable (Int) async throws -> Slice<Item>
    ) async throws -> ([Item], Paging) {
        let head = try await fetch(first)
        let last = min(first + count - 1, head.lastReachablePage)
        var pages: [Int: [Item]] = [first: head.results]
        if last > first {
            progress?(1, last - first + 1)
            try await withThrowingTaskGroup(of: (Int, [Item]).self) { group in
                for number in (first + 1)...last {
                    group.addTask { (number, try await fetch(number).results) }
                }
                for try await (number, results) in group {
                    pages[number] = results
                    progress?(pages.count, last - first + 1)
                }
            }
        }
        let results = pages.keys.sorted().flatMap { pages[$0] ?? [] }
        return (results, Paging(firstPage: first, pagesFetched: pages.count, totalPages: head.totalPages, totalResults: head.totalResults))
    }
}
