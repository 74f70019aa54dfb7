import ArgumentParser
import Reel
import ReportJSON

/// `reel genres [movie|tv]`: TMDb's genres, named in the account's language.
struct Genres: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "genres", abstract: "List TMDb's movie and series genres, in the account's language.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "movie or series (tv; default: both).") var mediaType: MediaType?

    func run() async throws {
        try await global.withApplication { app in
            let report = try await app.genres(mediaType, for: try global.handle())
            try global.json ? printJSON(ReportJSON.genres(report)) : render(report)
        }
    }

    private func render(_ report: GenresReport) {
        for (i, (type, genres)) in report.lists.enumerated() {
            if i > 0 { Console.line("") }
            Console.line(Terminal.bold(type == .movie ? "Movie genres" : "Series genres"))
            var table = TextTable(["ID", "NAME"], alignments: [.right, .left])
            for genre in genres.sorted(by: { $0.name < $1.name }) { table.add([String(genre.id), genre.name]) }
            Console.line(table.render(width: Terminal.width, flexible: [.init(1)]))
        }
    }
}
