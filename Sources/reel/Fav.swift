import ArgumentParser
import Catalog
import Ledger
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
        @Argument(help: "movie or tv.") var mediaType: MediaType
        @Argument(help: ArgumentHelp("TMDb ids (positive whole numbers).", valueName: "id")) var ids: [String]

        func run() async throws {
            try await runReporting {
                let keys = try MediaKeys.parse(mediaType, ids)
                CatalogLocation.prepare(for: [mediaType])
                let context = try AccountContext.load(global)
                let (lookups, isSample) = try await CatalogLocation.withClient(global) { client in
                    (try await Hydrator(client: client, language: context.language).lookUp(keys), client.source == .sample)
                }
                let absent = keys.filter { lookups[$0] == .notFound }
                if !absent.isEmpty && !isSample {
                    let noun = mediaType == .movie ? "movie" : "series"
                    let list = absent.map { String($0.id) }.joined(separator: ", ")
                    throw ReelFailure(message: "TMDb has no \(noun) with id \(list); nothing saved", status: .notFound)
                }
                for key in keys {
                    switch lookups[key] {
                    case .notFound?: Terminal.notice("the sample catalog does not know \(key); saved without checking (TMDb credentials let Reel check ids)")
                    case .notCached?: Terminal.notice("offline: saved \(key) without checking that TMDb has it")
                    case .failed(let reason)?: Terminal.notice("could not check \(key) with TMDb (\(reason)); saved it without checking")
                    case .known?, nil: break
                    }
                }
                try CommandOutput.run(.addFavorites(keys), global: global, titles: lookups.compactMapValues(\.summary))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove movies or series from the saved list (what is not saved is left as it is).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "movie or tv.") var mediaType: MediaType
        @Argument(help: ArgumentHelp("TMDb ids (positive whole numbers).", valueName: "id")) var ids: [String]

        func run() async throws {
            try await runReporting {
                let keys = try MediaKeys.parse(mediaType, ids)
                let context = try AccountContext.load(global)
                // Titles only name what was removed: a title TMDb lost can still be removed, and a
                // catalog that cannot answer only leaves the names out.
                let lookups = (try? await CatalogLocation.withClient(global) { client in
                    try await Hydrator(client: client, language: context.language).lookUp(keys)
                }) ?? [:]
                try CommandOutput.run(.removeFavorites(keys), global: global, titles: lookups.compactMapValues(\.summary))
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
