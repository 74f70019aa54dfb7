import ArgumentParser
import Catalog
import Foundation
import Ledger
import Reel

/// `reel show movie|tv ID`: one title's details from the catalog, in the account's language,
/// and whether it is in the saved list.
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a movie's or series' details.",
        discussion: "Details come from TMDb (or the bundled sample catalog without credentials), in the account's language."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "movie or tv.") var mediaType: MediaType
    @Argument(help: "The TMDb id.") var id: String
    @Flag(help: "Also list similar titles.") var similar = false

    func run() async throws {
        try await runReporting {
            let key: MediaKey
            do { key = try MediaKey(mediaType, parsing: id) } catch {
                throw ReelFailure(message: "\(error)", status: .usage)
            }
            let handle = try global.handle()
            // The account's language and saved list, when there is a ledger and an account.
            var language = LanguageTag.default.description
            var savedAt: Int64?
            if AccountService.ledgerExists(at: global.resolvedDataDirectory) {
                let service = try LedgerLocation.existingService(global)
                do {
                    let view = try service.view(of: handle)
                    language = view.state.settings.language.description
                    savedAt = view.state.saved.items.first { $0.key == key }?.addedAt
                } catch ReelError.noAccount, ReelError.accountDeleted {
                    // No account yet: English, and nothing saved.
                }
            }
            let details = try await CatalogLocation.withClient(global) { client in
                do {
                    return try await TitleDetails.fetch(key, language: language, similar: similar, from: client)
                } catch CatalogError.notFound {
                    throw ReelFailure(message: "TMDb has no \(mediaType == .movie ? "movie" : "series") with id \(id)", status: .notFound)
                }
            }
            if global.json {
                try printJSON(details.json(savedAt: savedAt, language: language))
            } else {
                Console.line(details.render(savedAt: savedAt, width: Terminal.width))
            }
        }
    }
}
