import ArgumentParser
import Foundation
import Reel

/// `reel show movie|tv ID`: one title's details from the catalog, in the account's language,
/// and whether it is in the saved list.
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a movie's or series' details.",
        discussion: "Details come from TMDb (or the bundled sample catalog without credentials), in the account's language."
    )

    @OptionGroup var global: TimedGlobalOptions
    @Argument(help: "movie or series (tv).") var mediaType: MediaType
    @Argument(help: "The TMDb id.") var id: String
    @Flag(help: "Also list similar titles.") var similar = false

    func validate() throws { _ = try key() }

    func run() async throws {
        try await global.withApplication { app in
            let details = try await app.titleDetails(try key(), similar: similar, for: try global.handle())
            if global.json {
                try printJSON(details.json())
            } else {
                Console.line(details.render(width: Terminal.width))
            }
        }
    }

    /// The title asked for; `validate()` refuses an id that is not a TMDb id (exit 64).
    private func key() throws -> MediaKey {
        do { return try MediaKey(mediaType, parsing: id) } catch { throw ValidationError(refusing: error) }
    }
}
