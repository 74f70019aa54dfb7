import Catalog
import Foundation
import Ledger

extension Application {
    /// The saved list, now or as of a point in the past, filled in with catalog details in the
    /// language the account reads now; titles not yet known are fetched in parallel
    /// (`progress`: done, total). OMDb's scores come from the cache, and those missing are asked
    /// for as bulk work within the day's budget, the most recently saved first (`omdbProgress`).
    public func savedList(
        of handle: AccountHandle, _ query: SavedListQuery, progress: ((Int, Int) -> Void)? = nil, omdbProgress: ((Int, Int) -> Void)? = nil
    ) async throws -> SavedListReport {
        let stamp = try readStamp(of: handle)  // before reading: a change meanwhile makes it stale
        let (view, language) = try savedView(of: handle, asOf: query.asOf)
        let all = view.state.saved.items
        var items = all
        if let mediaType = query.mediaType { items = items.filter { $0.key.mediaType == mediaType } }

        var freshUntil = Int64.max
        let lookups = try await lookUp(items.map(\.key), language: language, progress: progress) { freshUntil = $0 }
        var notices = TitleLookup.notices(for: items.lazy.compactMap { lookups[$0.key] }, sample: try catalogIsSample())
        func summary(_ item: SavedItem) -> TitleSummary? { lookups[item.key]?.summary }

        if let search = query.search {
            items = items.filter { item in
                summary(item)?.matches(search) ?? TextFolding.contains(item.key.description, search)
            }
        }
        if !query.genres.isEmpty {
            let unknown = items.filter { summary($0) == nil }.count
            items = items.filter { item in
                guard let s = summary(item) else { return false }
                return query.anyGenre ? query.genres.contains(where: s.hasGenre) : query.genres.allSatisfy(s.hasGenre)
            }
            if unknown > 0 { notices.append("\(unknown) title\(unknown == 1 ? "" : "s") without details left out of the genre filter") }
        }
        let (scores, fill) = try await omdbScores(of: items.reversed().compactMap(summary), progress: omdbProgress)
        if let stopped = fill?.stopped, let left = fill?.left, left > 0 {
            notices.append("OMDb's scores of \(left) saved title\(left == 1 ? "" : "s") are still missing: \(stopped)")
        }
        func omdb(_ item: SavedItem) -> OMDbScores? { summary(item)?.imdbID.flatMap { scores[$0] } }
        items = Self.sorted(items, by: query.order, descending: query.descending, details: summary, scores: omdb)
        if let fill, fill.left > 0 || fill.failed > 0 { freshUntil = 0 }
        for score in scores.values { freshUntil = min(freshUntil, score.expiresAt) }
        let report = SavedListReport(
            handle: handle, stream: view.stream, asOf: view.asOf, language: language, total: all.count,
            items: items.map { SavedListReport.Item(saved: $0, lookup: lookups[$0.key] ?? .notCached, omdb: omdb($0)) }, notices: notices,
            omdbFill: fill, validity: nil)
        // Reused only when complete: a title without details is asked for again next time.
        guard report.detailsMissing == 0, freshUntil > Self.nowMicroseconds() else { return report }
        return report.valid(ReadValidity(stream: stamp.stream, streamVersion: stamp.streamVersion, cacheGeneration: stamp.cacheGeneration, until: freshUntil))
    }

    /// One page of the saved list: at most `limit` items after the one `cursor` names (found by
    /// its key wherever it is now, else at its old place). In the order saved and without a
    /// search or a genre filter, only the page's titles are filled in (a page of a list of 5,000
    /// costs what a page costs); another order or a filter needs every title's details, so the
    /// whole list is made and the page cut from it.
    public func savedPage(
        of handle: AccountHandle, _ query: SavedListQuery, limit: Int, after cursor: (key: MediaKey, index: Int)?
    ) async throws -> SavedListPage {
        func range(_ keys: [MediaKey]) -> Range<Int> {
            var start = 0
            if let cursor { start = keys.firstIndex(of: cursor.key).map { $0 + 1 } ?? min(max(cursor.index, 0), keys.count) }
            return start..<min(keys.count, start + max(limit, 1))
        }
        func next(_ keys: [MediaKey], _ page: Range<Int>) -> (key: MediaKey, index: Int)? {
            page.upperBound < keys.count && !page.isEmpty ? (keys[page.upperBound - 1], page.upperBound - 1) : nil
        }
        guard query.order == .added, query.search == nil, query.genres.isEmpty else {
            let report = try await savedList(of: handle, query)
            let keys = report.items.map(\.saved.key)
            let page = range(keys)
            return SavedListPage(report: report, range: page, next: next(keys, page))
        }
        let (view, language) = try savedView(of: handle, asOf: query.asOf)
        let all = view.state.saved.items
        var items = all
        if let mediaType = query.mediaType { items = items.filter { $0.key.mediaType == mediaType } }
        if query.descending { items.reverse() }
        let keys = items.map(\.key)
        let page = range(keys)
        let slice = Array(items[page])
        let lookups = try await lookUp(slice.map(\.key), language: language, progress: nil) { _ in }
        var notices = TitleLookup.notices(for: slice.lazy.compactMap { lookups[$0.key] }, sample: try catalogIsSample())
        func summary(_ item: SavedItem) -> TitleSummary? { lookups[item.key]?.summary }
        let (scores, fill) = try await omdbScores(of: slice.reversed().compactMap(summary), progress: nil)
        if let stopped = fill?.stopped, let left = fill?.left, left > 0 {
            notices.append("OMDb's scores of \(left) saved title\(left == 1 ? "" : "s") are still missing: \(stopped)")
        }
        let report = SavedListReport(
            handle: handle, stream: view.stream, asOf: view.asOf, language: language, total: all.count,
            items: slice.map { item in
                SavedListReport.Item(saved: item, lookup: lookups[item.key] ?? .notCached, omdb: summary(item)?.imdbID.flatMap { scores[$0] })
            }, notices: notices, omdbFill: fill, validity: nil)
        return SavedListPage(report: report, range: 0..<slice.count, next: next(keys, page))
    }

    /// The account as of `asOf`, and the language it reads now (a list of the past is shown in
    /// today's language).
    private func savedView(of handle: AccountHandle, asOf: AsOf?) throws -> (AccountView, String) {
        let view = try account(handle, asOf: asOf)
        let live = asOf == nil ? view : (try? account(handle)) ?? view
        let language = live.state.settings.language.description
        catalogs.noteSampleLanguage(language)
        return (view, language)
    }

    /// Items in the order asked for. Titles without details or without the score sorted by
    /// (nothing to sort them by) go last.
    static func sorted(
        _ items: [SavedItem], by key: SavedListQuery.Order, descending: Bool, details: (SavedItem) -> TitleSummary?,
        scores: (SavedItem) -> OMDbScores? = { _ in nil }
    ) -> [SavedItem] {
        guard key != .added else { return descending ? items.reversed() : items }
        func score(_ item: SavedItem) -> Double? {
            guard let s = scores(item) else { return nil }
            switch key {
            case .imdb: return s.imdbRating
            case .metascore: return s.metascore.map(Double.init)
            case .tomatometer: return s.tomatometer.map(Double.init)
            default: return nil
            }
        }
        func sortable(_ item: SavedItem) -> Bool { key.isOMDb ? score(item) != nil : details(item) != nil }
        let known = items.filter(sortable)
        let unknown = items.filter { !sortable($0) }
        // Ties keep the order added (the sort is stable over the added order).
        let ordered = known.enumerated().sorted { a, b in
            let order: ComparisonResult
            if key.isOMDb {
                let x = score(a.element)!, y = score(b.element)!
                order = x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
                if order == .orderedSame { return a.offset < b.offset }
                return descending ? order == .orderedDescending : order == .orderedAscending
            }
            let x = details(a.element)!, y = details(b.element)!
            switch key {
            case .added, .imdb, .metascore, .tomatometer: order = .orderedSame
            case .title: order = TextFolding.fold(x.title).compare(TextFolding.fold(y.title))
            case .release: order = compare(x.date, y.date)
            case .rating: order = x.voteAverage == y.voteAverage ? .orderedSame : (x.voteAverage < y.voteAverage ? .orderedAscending : .orderedDescending)
            }
            if order == .orderedSame { return a.offset < b.offset }
            return descending ? order == .orderedDescending : order == .orderedAscending
        }.map(\.element)
        return ordered + unknown
    }

    private static func compare(_ a: TMDbDate?, _ b: TMDbDate?) -> ComparisonResult {
        switch (a, b) {
        case let (x?, y?): x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        case (nil, nil): .orderedSame
        case (nil, _): .orderedDescending  // undated after dated
        case (_, nil): .orderedAscending
        }
    }
}
