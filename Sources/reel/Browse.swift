import ArgumentParser
import Catalog
import Foundation
import JSONKit
import Ledger
import Reel

/// `reel movies` and `reel series`: TMDb's discover lists (or its popular and top-rated charts),
/// in the account's language, with a ★ on saved titles.
struct Movies: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movies",
        abstract: "Browse movies: discover by genre, year and person, or TMDb's popular and top-rated lists.",
        discussion: Browse.discussion
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var browse: Browse.Options
    @Option(name: .customLong("with-person"), help: ArgumentHelp("Only movies with this person in the cast or crew (a name or a TMDb person id).", valueName: "name|id"))
    var withPerson: String?

    func validate() throws { try browse.check(person: withPerson) }

    func run() async throws {
        try await runReporting { try await Browse.run(.movie, browse, person: withPerson, global: global) }
    }
}

struct Series: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "series",
        abstract: "Browse series: discover by genre and year, or TMDb's popular and top-rated lists.",
        discussion: Browse.discussion
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var browse: Browse.Options

    func validate() throws { try browse.check(person: nil) }

    func run() async throws {
        try await runReporting { try await Browse.run(.tv, browse, person: nil, global: global) }
    }
}

extension DiscoverQuery.Order: ExpressibleByArgument {}

enum Browse {
    static let discussion = """
        Genres are names in the account's language (reel genres lists them) or TMDb genre ids; \
        several --genre mean all of them, --any-genre any of them. --sort rating leaves out titles \
        with fewer than 200 votes. TMDb serves 20 titles a page, up to page 500.
        """

    struct Options: ParsableArguments {
        @Option(help: "Order by popularity (default), release, rating or title.") var sort: DiscoverQuery.Order = .popularity
        @Flag(help: "Highest, newest or Z first (the default, except for --sort title).") var desc = false
        @Flag(help: "Lowest, oldest or A first (the default for --sort title).") var asc = false
        @Option(parsing: .upToNextOption, help: ArgumentHelp("Only titles with all of these genres (names or ids).", valueName: "genre"))
        var genre: [String] = []
        @Flag(help: "With several --genre: titles with any of them.") var anyGenre = false
        @Option(help: ArgumentHelp("Only titles released (first aired) in this year.", valueName: "year")) var year: Int?
        @Option(help: ArgumentHelp("The page to show (1–500).", valueName: "n")) var page: Int = 1
        @Option(help: ArgumentHelp("How many pages to fetch from --page on (1–50).", valueName: "n")) var pages: Int = 1
        @Flag(help: "TMDb's popular list instead of discover.") var popular = false
        @Flag(name: .customLong("top-rated"), help: "TMDb's top-rated list instead of discover.") var topRated = false

        func check(person: String?) throws {
            if desc && asc { throw ValidationError("--desc and --asc contradict each other; give one") }
            if popular && topRated { throw ValidationError("--popular and --top-rated are two lists; give one") }
            guard (1...Page<MovieSummary>.maximumPage).contains(page) else { throw ValidationError("--page takes 1 to 500 (TMDb serves no page past 500)") }
            guard (1...50).contains(pages) else { throw ValidationError("--pages takes 1 to 50") }
            if let year, !(1874...2100).contains(year) { throw ValidationError("--year takes a year such as 1999") }
            if popular || topRated {
                var filters: [String] = []
                if !genre.isEmpty { filters.append("--genre") }
                if year != nil { filters.append("--year") }
                if person != nil { filters.append("--with-person") }
                if sort != .popularity || desc || asc { filters.append("--sort/--desc/--asc") }
                if !filters.isEmpty {
                    throw ValidationError("\(filters.joined(separator: ", ")) only work\(filters.count == 1 ? "s" : "") with discover, not with TMDb's \(popular ? "--popular" : "--top-rated") list")
                }
            }
        }

        var descending: Bool { desc || (!asc && sort != .title) }

        var list: String { popular ? "popular" : topRated ? "top-rated" : "discover" }
    }

    static func run(_ mediaType: MediaType, _ options: Options, person: String?, global: GlobalOptions) async throws {
        let context = try AccountContext.load(global)
        let language = context.language
        let result = try await CatalogLocation.withClient(global) { client in
            let genres = try await client.genres(mediaType, language: language)
            let genreIDs = try await GenreNames.resolve(options.genre, mediaType: mediaType, in: genres, client: client)
            var people: PersonLookup.Found?
            if let person { people = try await PersonLookup.resolve(person, client: client, language: language) }
            var query = DiscoverQuery(mediaType: mediaType)
            query.order = options.sort
            query.descending = options.descending
            query.genres = genreIDs.map(\.id)
            query.genreMatch = options.anyGenre ? .any : .all
            query.people = people.map { [$0.id] } ?? []
            query.year = options.year
            query.language = language
            let list = options.list
            let fetched = try await PageFetcher.fetch(from: options.page, count: options.pages) { [query] page in
                var query = query
                query.page = page
                return try await Self.page(mediaType, list, query, client: client)
            }
            return (genres, genreIDs, people, fetched)
        }
        let (genres, chosen, people, fetched) = result
        let rows = fetched.results.compactMap { TitleSummary($0, genres: genres) }.map {
            TitleList.Row(key: $0.key, lookup: .known($0), savedAt: context.savedAt[$0.key])
        }
        if global.json {
            let document: JSONValue = [
                "mediaType": .string(mediaType.rawValue), "list": .string(options.list), "language": .string(language),
                "sort": options.list == "discover" ? .string(options.sort.rawValue) : .null,
                "descending": options.list == "discover" ? .bool(options.descending) : .null,
                "genres": .array(chosen.map { ["id": .integer(Int64($0.id)), "name": .string($0.name)] }),
                "anyGenre": .bool(options.anyGenre), "year": .init(options.year.map { .integer(Int64($0)) }),
                "person": .init(people.map { ["id": .integer(Int64($0.id)), "name": .string($0.name)] }),
                "page": .integer(Int64(options.page)), "pages": .integer(Int64(fetched.pagesFetched)),
                "totalPages": .integer(Int64(fetched.totalPages)), "totalResults": .integer(Int64(fetched.totalResults)),
                "count": .integer(Int64(rows.count)), "results": .array(rows.map(TitleList.json)),
            ]
            try printJSON(document)
            return
        }
        var heading = [options.list == "popular" ? "Popular" : options.list == "top-rated" ? "Top rated" : "Discover"]
        heading[0] += mediaType == .movie ? " movies" : " series"
        if options.list == "discover" { heading.append("by \(options.sort.rawValue), \(options.descending ? "descending" : "ascending")") }
        if !chosen.isEmpty { heading.append(chosen.map(\.name).joined(separator: options.anyGenre ? " or " : " and ")) }
        if let year = options.year { heading.append(String(year)) }
        if let people { heading.append("with \(people.name)") }
        // Genre and person names come from TMDb.
        Console.line(Terminal.bold(Terminal.fit(TerminalText.field(heading.joined(separator: " · ")))))
        guard !rows.isEmpty else {
            Console.line("no titles" + (options.page > 1 ? " on page \(options.page)" : ""))
            return
        }
        Console.line(TitleList(rows: rows, showsType: false).render(width: Terminal.width))
        Console.line(Terminal.dim(Terminal.fit(fetched.footer() + (rows.contains { $0.savedAt != nil } ? "; \(TitleList.savedMark) saved" : ""))))
    }

    private static func page(_ mediaType: MediaType, _ list: String, _ query: DiscoverQuery, client: CatalogClient) async throws -> PageFetcher.Slice<MediaSummary> {
        func wrap<T>(_ page: Page<T>, _ f: (T) -> MediaSummary) -> PageFetcher.Slice<MediaSummary> { PageFetcher.Slice(page, f) }
        switch (mediaType, list) {
        case (.movie, "popular"): return wrap(try await client.popularMovies(page: query.page, language: query.language), MediaSummary.movie)
        case (.movie, "top-rated"): return wrap(try await client.topRatedMovies(page: query.page, language: query.language), MediaSummary.movie)
        case (.movie, _): return wrap(try await client.discoverMovies(query), MediaSummary.movie)
        case (.tv, "popular"): return wrap(try await client.popularSeries(page: query.page, language: query.language), MediaSummary.series)
        case (.tv, "top-rated"): return wrap(try await client.topRatedSeries(page: query.page, language: query.language), MediaSummary.series)
        case (.tv, _): return wrap(try await client.discoverSeries(query), MediaSummary.series)
        }
    }
}
