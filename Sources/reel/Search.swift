import ArgumentParser
import Catalog
import Foundation
import JSONKit
import Ledger
import Reel

/// `reel search QUERY`: movies, series and people by name, in the account's language.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search TMDb for movies, series or people.",
        discussion: "--type multi (the default) searches movies, series and people at once. TMDb serves 20 results a page."
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case movie, tv, person, multi
    }

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("What to look for (several words are one query).", valueName: "query")) var words: [String]
    @Option(name: .customLong("type"), help: "movie, tv, person or multi (default).") var kind: Kind = .multi
    @Option(help: ArgumentHelp("Only titles released (first aired) in this year (--type movie or tv).", valueName: "year")) var year: Int?
    @Option(help: ArgumentHelp("The page to show (1–500).", valueName: "n")) var page: Int = 1
    @Option(help: ArgumentHelp("How many pages to fetch from --page on (1–50).", valueName: "n")) var pages: Int = 1

    var query: String { words.joined(separator: " ").trimmingCharacters(in: .whitespaces) }

    func validate() throws {
        if query.isEmpty { throw ValidationError("give something to search for") }
        guard (1...Page<MovieSummary>.maximumPage).contains(page) else { throw ValidationError("--page takes 1 to 500 (TMDb serves no page past 500)") }
        guard (1...50).contains(pages) else { throw ValidationError("--pages takes 1 to 50") }
        if year != nil && (kind == .person || kind == .multi) { throw ValidationError("--year applies to --type movie or tv") }
    }

    /// One result: a title (movie or series) or a person.
    enum Found: Sendable {
        case title(MediaSummary)
        case person(PersonSummary)
    }

    func run() async throws {
        try await runReporting {
            let context = try AccountContext.load(global)
            let language = context.language
            let (query, kind, year) = (self.query, self.kind, self.year)
            let (movieGenres, seriesGenres, fetched) = try await CatalogLocation.withClient(global) { client in
                let movieGenres = kind == .movie || kind == .multi ? try await client.genres(.movie, language: language) : nil
                let seriesGenres = kind == .tv || kind == .multi ? try await client.genres(.tv, language: language) : nil
                let fetched = try await PageFetcher.fetch(from: page, count: pages) { page -> PageFetcher.Slice<Found> in
                    switch kind {
                    case .movie: PageFetcher.Slice(try await client.searchMovies(query, page: page, language: language, year: year)) { .title(.movie($0)) }
                    case .tv: PageFetcher.Slice(try await client.searchSeries(query, page: page, language: language, year: year)) { .title(.series($0)) }
                    case .person: PageFetcher.Slice(try await client.searchPeople(query, page: page, language: language)) { .person($0) }
                    case .multi:
                        PageFetcher.Slice(try await client.searchMulti(query, page: page, language: language)) { result -> Found in
                            if case .person(let p) = result { return .person(p) }
                            return .title(result.media!)
                        }
                    }
                }
                return (movieGenres, seriesGenres, fetched)
            }
            func row(_ media: MediaSummary) -> TitleList.Row? {
                guard let summary = TitleSummary(media, genres: media.isMovie ? movieGenres : seriesGenres) else { return nil }
                return TitleList.Row(key: summary.key, lookup: .known(summary), savedAt: context.savedAt[summary.key])
            }
            if global.json {
                let results: [JSONValue] = fetched.results.compactMap { found in
                    switch found {
                    case .title(let media): row(media).map(TitleList.json)
                    case .person(let person): Self.json(person)
                    }
                }
                let document: JSONValue = [
                    "query": .string(query), "type": .string(kind.rawValue), "language": .string(language),
                    "year": .init(year.map { .integer(Int64($0)) }), "page": .integer(Int64(page)),
                    "pages": .integer(Int64(fetched.pagesFetched)), "totalPages": .integer(Int64(fetched.totalPages)),
                    "totalResults": .integer(Int64(fetched.totalResults)), "count": .integer(Int64(results.count)),
                    "results": .array(results),
                ]
                try printJSON(document)
                return
            }
            let titles = fetched.results.compactMap { if case .title(let m) = $0 { row(m) } else { nil } }
            let people = fetched.results.compactMap { if case .person(let p) = $0 { p } else { nil } }
            guard !titles.isEmpty || !people.isEmpty else {
                Console.line("nothing found for '\(TerminalText.field(query))'" + (page > 1 ? " on page \(page)" : ""))
                return
            }
            if !titles.isEmpty {
                Console.line(TitleList(rows: titles, showsType: kind == .multi).render(width: Terminal.width))
            }
            if !people.isEmpty {
                if !titles.isEmpty { Console.line("") }
                var table = TextTable(["PERSON ID", "NAME", "KNOWN FOR"], alignments: [.right, .left, .left])
                for person in people {
                    let knownFor = person.knownFor.map(\.title).joined(separator: ", ")
                    table.add([String(person.id), person.name, [person.knownForDepartment, knownFor.isEmpty ? nil : knownFor].compactMap { $0 }.joined(separator: ": ")])
                }
                Console.line(table.render(width: Terminal.width, flexible: [.init(2, minimum: 10), .init(1, minimum: 10)], droppable: [2]))
            }
            let (noun, one) = kind == .person ? ("people", "person") : kind == .multi ? ("results", "result") : ("titles", "title")
            Console.line(Terminal.dim(Terminal.fit(fetched.footer(noun, one: one) + (titles.contains { $0.savedAt != nil } ? "; \(TitleList.savedMark) saved" : ""))))
        }
    }

    static func json(_ person: PersonSummary) -> JSONValue {
        [
            "mediaType": "person", "id": .integer(Int64(person.id)), "name": .string(person.name),
            "knownForDepartment": .init(person.knownForDepartment.map(JSONValue.string)), "popularity": .double(person.popularity),
            "profilePath": .init(person.profilePath.map(JSONValue.string)),
            "knownFor": .array(person.knownFor.map { media in
                ["mediaType": .string(media.isMovie ? "movie" : "tv"), "id": .integer(Int64(media.id)), "title": .string(media.title)]
            }),
        ]
    }
}
