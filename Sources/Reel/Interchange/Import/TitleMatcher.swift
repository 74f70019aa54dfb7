import Catalog
import Ledger

/// Finds the TMDb title of each imported row: its TMDb id when the file has one, else through its
/// IMDb id (`/find`), else by title and year (`/search`, the result whose title and year agree).
/// Rows are matched in parallel; the client keeps within its limits and answers from its cache.
public struct TitleMatcher: Sendable {
    public let client: CatalogClient
    public let language: String

    public init(client: CatalogClient, language: String) {
        self.client = client
        self.language = language
    }

    public func match(_ title: ImportedTitle) async throws -> TitleMatch {
        guard let mediaType = title.mediaType else {
            return .unmatched(reason: "\(title.kind ?? "this kind of entry") cannot be saved (only movies and series)")
        }
        if let id = title.tmdbID {
            do {
                return .matched(try MediaKey(mediaType, id))
            } catch {
                return .unmatched(reason: "TMDb id \(id) is not valid")
            }
        }
        do {
            if let imdb = title.imdbID {
                let found = try await client.find(imdbID: imdb, language: language)
                let ids = mediaType == .movie ? found.movieResults.map(\.id) : found.tvResults.map(\.id)
                if let id = ids.first { return .matched(try MediaKey(mediaType, Int64(id))) }
                if title.title == nil { return .unmatched(reason: "TMDb has no \(mediaType.noun) with IMDb id \(imdb)") }
            }
            guard let text = title.title, !text.isEmpty else { return .unmatched(reason: "no TMDb id, IMDb id or title to match") }
            return try await search(text, year: title.year, mediaType: mediaType)
        } catch let error as CatalogError {
            switch error {
            case .invalidCredentials, .missingCredentials: throw error
            case .notFound: return .unmatched(reason: "TMDb has no match")
            case .notCached: return .unmatched(reason: "offline, and the answer is not cached")
            case .unavailable, .rateLimited, .rejected, .malformedResponse: return .unmatched(reason: error.description)
            }
        }
    }

    private func search(_ text: String, year: Int?, mediaType: MediaType) async throws -> TitleMatch {
        let wanted = TextFolding.fold(text)
        let candidates: [(id: Int, titles: [String], year: Int?)]
        switch mediaType {
        case .movie:
            candidates = try await client.searchMovies(text, language: language, year: year).results.map {
                ($0.id, [$0.title, $0.originalTitle].compactMap { $0 }, $0.releaseDate?.year)
            }
        case .tv:
            candidates = try await client.searchSeries(text, language: language, year: year).results.map {
                ($0.id, [$0.name, $0.originalName].compactMap { $0 }, $0.firstAirDate?.year)
            }
        }
        let sameYear = candidates.filter { year == nil || $0.year == year }
        let exact = sameYear.first { $0.titles.contains { TextFolding.fold($0) == wanted } }
        guard let chosen = exact ?? (sameYear.count == 1 ? sameYear.first : nil) else {
            // The row's title is shown beside the reason already: the reason does not repeat it.
            let year = year.map { " from \($0)" } ?? ""
            return .unmatched(reason: sameYear.isEmpty ? "no TMDb match" : "\(sameYear.count) TMDb titles\(year) could be it; none has exactly that title")
        }
        return .matched(try MediaKey(mediaType, Int64(chosen.id)))
    }

    /// Every row's match, in the rows' order. `progress(done, total)` is called after each.
    public func match(_ titles: [ImportedTitle], progress: ((Int, Int) -> Void)? = nil) async throws -> [TitleMatch] {
        var results = [TitleMatch?](repeating: nil, count: titles.count)
        var done = 0
        try await withThrowingTaskGroup(of: (Int, TitleMatch).self) { group in
            for (index, title) in titles.enumerated() {
                group.addTask { (index, try await match(title)) }
            }
            for try await (index, match) in group {
                results[index] = match
                done += 1
                progress?(done, titles.count)
            }
        }
        return results.map { $0! }
    }
}
