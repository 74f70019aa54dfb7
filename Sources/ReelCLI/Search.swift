import ArgumentParser
import Foundation
import Presentation
import Reel
import ReportJSON

/// `reel search QUERY`: movies, series and people by name, in the account's language.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search TMDb for movies, series or people.",
        discussion: "--type multi (the default) searches movies, series and people at once. TMDb serves 20 results a page."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("What to look for (several words are one query).", valueName: "query")) var words: [String]
    @Option(name: .customLong("type"), help: "movie, series (tv), person or multi (default: all at once).") var kind: SearchQuery.Kind = .multi
    @Option(help: ArgumentHelp("Only titles released (first aired) in this year (--type movie or tv).", valueName: "year")) var year: Int?
    @Option(help: ArgumentHelp("The page to show (1–500).", valueName: "n")) var page: Int = 1
    @Option(help: ArgumentHelp("How many pages to fetch from --page on (1–50).", valueName: "n")) var pages: Int = 1

    var query: String { words.joined(separator: " ").trimmingCharacters(in: .whitespaces) }

    func validate() throws {
        if query.isEmpty { throw ValidationError("give something to search for") }
        try Paging.validate(page: page, pages: pages)
        if year != nil && (kind == .person || kind == .multi) { throw ValidationError("--year applies to --type movie or series") }
    }

    func run() async throws {
        try await global.withApplication { app in
            let progress = ProgressLine.pages()
            defer { progress.finish() }
            let search = SearchQuery(query, kind: kind, year: year, page: page, pages: pages)
            let report = try await app.search(search, for: try global.handle()) { progress.update(UInt64($0), of: UInt64($1)) }
            progress.finish()  // before the list is written (the defer: when fetching fails)
            try global.json ? printJSON(ReportJSON.search(report)) : render(report)
        }
    }

    private func render(_ report: SearchReport) {
        let titles = report.titles.map(Browse.row)
        let people = report.people
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
        Console.line(Terminal.dim(Terminal.fit(report.paging.footer(noun, one: one) + (titles.contains { $0.savedAt != nil } ? "; \(TitleList.savedMark) saved" : ""))))
    }
}
