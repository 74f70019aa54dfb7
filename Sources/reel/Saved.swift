import ArgumentParser
import Catalog
import Foundation
import JSONKit
import Ledger
import Reel

/// `reel saved`: the saved list, now or as of a point in the past, filled in with catalog
/// details (titles, years, genres, ratings) in the account's language.
struct Saved: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saved",
        abstract: "Show the saved list.",
        discussion: """
            Titles, years, genres and ratings come from TMDb (or the bundled sample catalog without \
            credentials), in the account's language; titles not yet known are fetched in parallel. \
            Offline (--offline), cached details are used and titles without them are marked. \
            --search matches titles and original titles, ignoring case and accents; --genre takes \
            genre names in the account's language or TMDb genre ids.
            """
    )

    enum SortKey: String, ExpressibleByArgument, CaseIterable {
        case added, title, release, rating
    }

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("type"), help: "Only movie or tv.") var mediaType: MediaType?
    @Option(help: ArgumentHelp("Only titles containing this text (case and accents ignored).", valueName: "text")) var search: String?
    @Option(help: "Order by added (default), title, release or rating.") var sort: SortKey = .added
    @Flag(help: "Reverse the order (newest, last, latest or best first).") var desc = false
    @Option(parsing: .upToNextOption, help: ArgumentHelp("Only titles with all of these genres (names or ids).", valueName: "genre"))
    var genre: [String] = []
    @Flag(help: "With several --genre: titles with any of them.") var anyGenre = false
    @Option(name: .customLong("as-of"), help: AsOfArgument.help) var asOf: AsOfArgument?

    func run() async throws {
        try await runReporting {
            if !global.json { TitleList.prepareNumbers() }
            CatalogLocation.prepare(for: mediaType.map { [$0] } ?? [.movie, .tv])
            let handle = try global.handle()
            let service = try LedgerLocation.existingService(global)
            let view = try service.view(of: handle, asOf: asOf?.value)
            // Details in the language the account reads now, also when looking into the past.
            let live = asOf == nil ? view : (try? service.view(of: handle)) ?? view
            let language = live.state.settings.language.description
            let all = view.state.saved.items
            var items = all
            if let mediaType { items = items.filter { $0.key.mediaType == mediaType } }

            let (lookups, isSample) = try await CatalogLocation.withClient(global) { client in
                let progress = ProgressLine(label: "fetching details", threshold: 20)
                defer { progress.finish() }
                let found = try await Hydrator(client: client, language: language).lookUp(items.map(\.key)) {
                    progress.update(UInt64($0), of: UInt64($1))
                }
                return (found, client.source == .sample)
            }
            var notices = TitleList.notices(for: items.lazy.compactMap { lookups[$0.key] }, sample: isSample)
            func summary(_ item: SavedItem) -> TitleSummary? { lookups[item.key]?.summary }

            if let search {
                items = items.filter { item in
                    summary(item)?.matches(search) ?? TextFolding.contains(item.key.description, search)
                }
            }
            if !genre.isEmpty {
                let unknown = items.filter { summary($0) == nil }.count
                items = items.filter { item in
                    guard let s = summary(item) else { return false }
                    return anyGenre ? genre.contains(where: s.hasGenre) : genre.allSatisfy(s.hasGenre)
                }
                if unknown > 0 { notices.append("\(unknown) title\(unknown == 1 ? "" : "s") without details left out of the genre filter") }
            }
            items = Self.sorted(items, by: sort, descending: desc, details: summary)

            let rows = items.map { TitleList.Row(key: $0.key, lookup: lookups[$0.key] ?? .notCached, savedAt: $0.addedAt, addedAt: $0.addedAt) }
            let missing = rows.reduce(0) { count, row in if case .known = row.lookup { count } else { count + 1 } }
            if global.json {
                let document: JSONValue = [
                    "user": .string(handle.value), "stream": .string(view.stream.rawValue), "asOf": JSONForm.asOf(view.asOf),
                    "language": .string(language), "sort": .string(sort.rawValue), "descending": .bool(desc),
                    "type": .init(mediaType.map { .string($0.rawValue) }), "search": .init(search.map(JSONValue.string)),
                    "genres": .array(genre.map(JSONValue.string)), "anyGenre": .bool(anyGenre),
                    "total": .integer(Int64(all.count)), "count": .integer(Int64(items.count)),
                    "detailsMissing": .integer(Int64(missing)),
                    "notices": .array(notices.map(JSONValue.string)),
                    "items": .array(zip(items, rows).map { item, row in
                        TitleList.json(row).merging(["addedAt": JSONForm.time(item.addedAt), "position": .integer(Int64(item.position))])
                    }),
                ]
                try printJSON(document)
                return
            }
            for notice in notices { Terminal.notice(notice) }
            if let asOf = view.asOf { Console.line(Terminal.dim("as of \(asOf)")) }
            guard !items.isEmpty else {
                Console.line(all.isEmpty ? "nothing saved" : "nothing saved matches")
                return
            }
            Console.line(TitleList(rows: rows, showsType: true, showsAdded: true, numbered: true).render(width: Terminal.width))
            let movies = items.reduce(0) { $0 + ($1.key.mediaType == .movie ? 1 : 0) }
            var footer = "\(items.count) of \(all.count) saved (movies: \(movies), series: \(items.count - movies))"
            if missing > 0 { footer += "; \(missing) without details" }
            Console.line(Terminal.dim(Terminal.fit(footer)))
        }
    }

    /// Items in the order asked for. Titles without details (nothing to sort them by) go last.
    static func sorted(
        _ items: [SavedItem], by key: SortKey, descending: Bool, details: (SavedItem) -> TitleSummary?
    ) -> [SavedItem] {
        guard key != .added else { return descending ? items.reversed() : items }
        let known = items.filter { details($0) != nil }
        let unknown = items.filter { details($0) == nil }
        // Ties keep the order added (the sort is stable over the added order).
        let ordered = known.enumerated().sorted { a, b in
            let x = details(a.element)!, y = details(b.element)!
            let order: ComparisonResult
            switch key {
            case .added: order = .orderedSame
            case .title: order = TextFolding.fold(x.title).compare(TextFolding.fold(y.title))
            case .release: order = Self.compare(x.date, y.date)
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
