import ArgumentParser
import Reel
import ReportJSON

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

            With an OMDb key (OMDB_API_KEY or 'reel omdb login'; the sample catalog has its own \
            facts), OMDb's IMDb rating, Metascore and Tomatometer are shown (an IMDB column when the \
            width allows) and can be sorted by, with --sort imdb, metascore or tomatometer. Titles OMDb has not \
            answered for are asked for within the day's budget, the most recently saved first; a \
            long list fills in over days ('reel omdb status' says how far it got).
            """
    )

    @OptionGroup var global: TimedGlobalOptions
    @Option(name: .customLong("type"), help: "Only movie or series (tv).") var mediaType: MediaType?
    @Option(help: ArgumentHelp("Only titles containing this text (case and accents ignored).", valueName: "text")) var search: String?
    @Option(help: "Order by added (default), title, release, rating (TMDb's), or OMDb's imdb, metascore or tomatometer.")
    var sort: SavedListQuery.Order = .added
    @Flag(help: "Last saved, Z, newest or best first (the default for --sort release and rating).") var desc = false
    @Flag(help: "First saved, A, oldest or worst first (the default for --sort added and title).") var asc = false
    @Option(parsing: .upToNextOption, help: ArgumentHelp("Only titles with all of these genres (names or ids).", valueName: "genre"), completion: Completions.savedGenres)
    var genre: [String] = []
    @Flag(help: "With several --genre: titles with any of them.") var anyGenre = false
    @Option(name: .customLong("as-of"), help: AsOfArgument.help, transform: AsOfArgument.parse) var asOf: AsOfArgument?

    func validate() throws {
        if desc && asc { throw ValidationError("--desc and --asc contradict each other; give one") }
    }

    /// The direction asked for, else the key's own.
    private var descending: Bool { desc || (!asc && sort.descendsByDefault) }

    func run() async throws {
        try await global.withApplication { app in
            if !global.json { TitleList.prepareNumbers() }
            let query = SavedListQuery(
                mediaType: mediaType, search: search, order: sort, descending: descending, genres: genre, anyGenre: anyGenre, asOf: asOf?.value)
            let progress = ProgressLine(label: "fetching details", threshold: 20)
            let omdbProgress = ProgressLine(label: "fetching OMDb ratings", threshold: 20)
            let report = try await app.savedList(
                of: try global.handle(), query, progress: { progress.update(UInt64($0), of: UInt64($1)) },
                omdbProgress: { progress.finish(); omdbProgress.update(UInt64($0), of: UInt64($1)) })
            progress.finish()
            omdbProgress.finish()
            try global.json ? printJSON(ReportJSON.saved(report, query: query)) : render(report)
        }
    }

    private func render(_ report: SavedListReport) {
        for notice in report.notices { Terminal.notice(notice) }
        if let asOf = report.asOf { Console.line(Terminal.dim("as of \(Timestamp.point(asOf))")) }
        guard !report.items.isEmpty else {
            Console.line(report.stream == nil ? "nothing saved yet: \(FirstRun.hint)" : report.total == 0 ? "nothing saved" : "nothing saved matches")
            return
        }
        Console.line(TitleList(rows: report.items.map(Self.row), showsType: true, showsAdded: true, numbered: true).render(width: Terminal.width))
        let movies = report.items.reduce(0) { $0 + ($1.saved.key.mediaType == .movie ? 1 : 0) }
        var footer = "\(report.items.count) of \(report.total) saved (movies: \(movies), series: \(report.items.count - movies))"
        if report.detailsMissing > 0 { footer += "; \(report.detailsMissing) without details" }
        Console.line(Terminal.dim(Terminal.fit(footer)))
    }

    private static func row(_ item: SavedListReport.Item) -> TitleList.Row {
        TitleList.Row(key: item.saved.key, lookup: item.lookup, savedAt: item.saved.addedAt, addedAt: item.saved.addedAt, omdb: item.omdb)
    }
}
