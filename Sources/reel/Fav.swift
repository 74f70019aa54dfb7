import ArgumentParser
import Ledger
import Reel

/// `reel fav add|remove movie|tv ID...`
struct Fav: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add titles to the saved list, or remove them.",
        subcommands: [Add.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save movies or series by TMDb id (what is saved already is left as it is).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "movie or tv.") var mediaType: MediaType
        @Argument(help: ArgumentHelp("TMDb ids (positive whole numbers).", valueName: "id")) var ids: [String]

        func run() async throws {
            try await runReporting {
                try CommandOutput.run(.addFavorites(try MediaKeys.parse(mediaType, ids)), global: global)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove movies or series from the saved list (what is not saved is left as it is).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "movie or tv.") var mediaType: MediaType
        @Argument(help: ArgumentHelp("TMDb ids (positive whole numbers).", valueName: "id")) var ids: [String]

        func run() async throws {
            try await runReporting {
                try CommandOutput.run(.removeFavorites(try MediaKeys.parse(mediaType, ids)), global: global)
            }
        }
    }
}

extension MediaType: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

enum MediaKeys {
    static func parse(_ type: MediaType, _ ids: [String]) throws -> [MediaKey] {
        guard !ids.isEmpty else { throw ReelFailure(message: "give at least one TMDb id", status: .usage) }
        return try ids.map { text in
            do { return try MediaKey(type, parsing: text) } catch { throw ReelFailure(message: "\(error)", status: .usage) }
        }
    }
}
