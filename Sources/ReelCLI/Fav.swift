import ArgumentParser
import Reel

/// `reel fav add|remove movie|tv ID...`
struct Fav: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fav",
        abstract: "Add titles to the saved list, or remove them.",
        subcommands: [Add.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Save movies or series by TMDb id (what is saved already is left as it is).",
            discussion: """
                Each id is checked with TMDb first: an id TMDb does not have is an error (exit 66) and \
                nothing is saved. Offline, or when TMDb cannot be reached, or with the bundled sample \
                catalog (no credentials), ids that cannot be checked are saved with a note.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var titles: TitleIDs

        func run() async throws {
            try await global.withApplication { app in
                let report = try await app.addFavorites(try titles.keys(), for: try global.handle())
                try CommandOutput.render(report, json: global.json)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove movies or series from the saved list (what is not saved is left as it is).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var titles: TitleIDs

        func run() async throws {
            try await global.withApplication { app in
                let report = try await app.removeFavorites(try titles.keys(), for: try global.handle())
                try CommandOutput.render(report, json: global.json)
            }
        }
    }
}

/// `movie|tv ID...` of `fav add` and `fav remove`, checked by `validate()` before anything runs.
struct TitleIDs: ParsableArguments {
    @Argument(help: "movie or tv.") var mediaType: MediaType
    @Argument(help: ArgumentHelp("TMDb ids (positive whole numbers).", valueName: "id")) var ids: [String]

    func validate() throws { _ = try keys() }

    func keys() throws -> [MediaKey] {
        guard !ids.isEmpty else { throw ValidationError("give at least one TMDb id") }
        return try ids.map { text in
            do { return try MediaKey(mediaType, parsing: text) } catch { throw ValidationError(refusing: error) }
        }
    }
}
