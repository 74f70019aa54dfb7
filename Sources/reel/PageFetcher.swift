import Catalog

/// Several pages of a paged TMDb list: the first to learn how many there are, then the rest in
/// parallel (the client keeps within its limits), with progress on a terminal.
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
        var lastReachablePage: Int { min(totalPages, Page<MovieSummary>.maximumPage) }
    }

    struct Fetched<Item: Sendable> {
        let results: [Item]
        let firstPage: Int
        let pagesFetched: Int
        let totalPages: Int
        let totalResults: Int

        /// `page 2 of 500 (10,000 titles)`, `pages 1–3 of 500 (10,000 titles)`.
        func footer(_ noun: String = "titles", one: String = "title") -> String {
            let pages = pagesFetched > 1 ? "pages \(firstPage)–\(firstPage + pagesFetched - 1)" : "page \(firstPage)"
            return "\(pages) of \(max(totalPages, 1)) (\(totalResults.formatted()) \(totalResults == 1 ? one : noun))"
        }
    }

    static func fetch<Item: Sendable>(
        from first: Int, count: Int, _ fetch: @escaping @Sendable (Int) async throws -> Slice<Item>
    ) async throws -> Fetched<Item> {
        let head = try await fetch(first)
        let last = min(first + count - 1, head.lastReachablePage)
        var pages: [Int: [Item]] = [first: head.results]
        if last > first {
            let progress = ProgressLine(label: "fetching pages", threshold: 2)
            defer { progress.finish() }
            progress.update(1, of: UInt64(last - first + 1))
            try await withThrowingTaskGroup(of: (Int, [Item]).self) { group in
                for number in (first + 1)...last {
                    group.addTask { (number, try await fetch(number).results) }
                }
                for try await (number, results) in group {
                    pages[number] = results
                    progress.update(UInt64(pages.count), of: UInt64(last - first + 1))
                }
            }
        }
        let results = pages.keys.sorted().flatMap { pages[$0] ?? [] }
        return Fetched(results: results, firstPage: first, pagesFetched: pages.count, totalPages: head.totalPages, totalResults: head.totalResults)
    }
}
