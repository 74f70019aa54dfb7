import ArgumentParser
import Catalog
import JSONKit
import Ledger

/// `reel genres [movie|tv]`: TMDb's genres, named in the account's language.
struct Genres: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "genres", abstract: "List TMDb's movie and series genres, in the account's language.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "movie or tv (default: both).") var mediaType: MediaType?

    func run() async throws {
        try await runReporting {
            let language = try AccountContext.load(global).language
            let types: [MediaType] = mediaType.map { [$0] } ?? [.movie, .tv]
            let lists = try await CatalogLocation.withClient(global) { client in
                var lists: [(MediaType, GenreList)] = []
                for type in types { lists.append((type, try await client.genres(type, language: language))) }
                return lists
            }
            if global.json {
                var document: [String: JSONValue] = ["language": .string(language), "movie": .null, "tv": .null]
                for (type, list) in lists {
                    document[type.rawValue] = .array(list.genres.map { ["id": .integer(Int64($0.id)), "name": .string($0.name)] })
                }
                try printJSON(JSONValue.object(document))
                return
            }
            for (i, (type, list)) in lists.enumerated() {
                if i > 0 { Console.line("") }
                Console.line(Terminal.bold(type == .movie ? "Movie genres" : "Series genres"))
                var table = TextTable(["ID", "NAME"], alignments: [.right, .left])
                for genre in list.genres.sorted(by: { $0.name < $1.name }) { table.add([String(genre.id), genre.name]) }
                Console.line(table.render(width: Terminal.width, flexible: [.init(1)]))
            }
        }
    }
}
