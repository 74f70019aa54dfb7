import ArgumentParser
import Reel

/// `reel fav add|remove movie|series ID...` or `reel fav add|remove "a title"`.
struct Fav: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fav",
        abstract: "Add titles to the saved list, or remove them.",
        subcommands: [Add.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Save a movie or series by title, or movies or series by TMDb id (what is saved already is left as it is).",
            discussion: """
                A title ('reel fav add "fight club"') is searched for in the account's language among \
                movies and series (--type and --year narrow it): the only result, or the only one whose \
                title is exactly what was typed, is saved and named. When several could be meant, they \
                are listed with their ids and nothing is saved (exit 64); at a terminal you can pick \
                one by number instead. Nothing found is exit 66. \
                Ids ('reel fav add movie 550 603') are checked with TMDb first: an id TMDb does not have \
                is an error (exit 66) and nothing is saved. Offline, or when TMDb cannot be reached, or \
                with the bundled sample catalog (no credentials), ids that cannot be checked are saved \
                with a note.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var titles: TitleArguments

        func run() async throws {
            try await global.withApplication { app in
                let handle = try global.handle()
                let report = try await app.addFavorites(try await titles.keys(app, for: handle), for: handle)
                try CommandOutput.render(report, json: global.json)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a movie or series by title, or movies or series by id, from the saved list (what is not saved is left as it is).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var titles: TitleArguments

        func run() async throws {
            try await global.withApplication { app in
                let handle = try global.handle()
                let report = try await app.removeFavorites(try await titles.keys(app, for: handle, command: "fav remove"), for: handle)
                try CommandOutput.render(report, json: global.json)
            }
        }
    }
}
