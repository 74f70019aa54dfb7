import ArgumentParser
import Foundation
import Presentation
import Reel
import ReportJSON

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
        try await Browse.run(browse.query(.movie, person: withPerson), global: global)
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
        try await Browse.run(browse.query(.tv, person: nil), global: global)
    }
}


enum Browse {
    static let discussion = """
        Genres are names in the account's language (reel genres lists them) or TMDb genre ids; \
        several --genre mean all of them, --any-genre any of them. --sort rating leaves out titles \
        with fewer than 200 votes. TMDb serves 20 titles a page, up to page 500.
        """

    struct Options: ParsableArguments {
        @Option(help: "Order by popularity (default), release, rating or title.") var sort: TitleListQuery.Order = .popularity
        @Flag(help: "Highest, newest or Z first (the default, except for --sort title).") var desc = false
        @Flag(help: "Lowest, oldest or A first (the default for --sort title).") var asc = false
        @Option(parsing: .upToNextOption, help: ArgumentHelp("Only titles with all of these genres (names or ids).", valueName: "genre"), completion: Completions.genres)
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
            try Paging.validate(page: page, pages: pages)
            if let year, !TitleListQuery.years.contains(year) { throw ValidationError("--year takes a year such as 1999") }
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

        func query(_ mediaType: MediaType, person: String?) -> TitleListQuery {
            TitleListQuery(
                mediaType: mediaType, list: popular ? .popular : topRated ? .topRated : .discover, order: sort,
                descending: desc || (!asc && sort.descendsByDefault), genres: genre, anyGenre: anyGenre, year: year, person: person,
                page: page, pages: pages)
        }
    }

    static func run(_ query: TitleListQuery, global: GlobalOptions) async throws {
        try await global.withApplication { app in
            let progress = ProgressLine.pages()
            defer { progress.finish() }
            let report = try await app.titleList(query, for: try global.handle()) { progress.update(UInt64($0), of: UInt64($1)) }
            progress.finish()  // before the list is written (the defer: when fetching fails)
            try global.json ? printJSON(ReportJSON.titleList(report)) : render(report)
        }
    }

    static func row(_ row: TitleListReport.Row) -> TitleList.Row {
        TitleList.Row(key: row.summary.key, lookup: .known(row.summary), savedAt: row.savedAt)
    }

    private static func render(_ report: TitleListReport) {
        let query = report.query
        var heading = [query.list == .popular ? "Popular" : query.list == .topRated ? "Top rated" : "Discover"]
        heading[0] += query.mediaType == .movie ? " movies" : " series"
        if query.list == .discover { heading.append("by \(query.order.rawValue), \(query.descending ? "descending" : "ascending")") }
        if !report.genres.isEmpty { heading.append(report.genres.map(\.name).joined(separator: query.anyGenre ? " or " : " and ")) }
        if let year = query.year { heading.append(String(year)) }
        if let person = report.person { heading.append("with \(person.name)") }
        // Genre and person names come from TMDb.
        Console.line(Terminal.bold(Terminal.fit(TerminalText.field(heading.joined(separator: " · ")))))
        guard !report.rows.isEmpty else {
            Console.line("no titles" + (query.page > 1 ? " on page \(query.page)" : ""))
            return
        }
        Console.line(TitleList(rows: report.rows.map(row), showsType: false).render(width: Terminal.width))
        let saved = report.rows.contains { $0.savedAt != nil } ? "; \(TitleList.savedMark) saved" : ""
        Console.line(Terminal.dim(Terminal.fit(report.paging.footer() + saved)))
    }
}
