import ArgumentParser
import Foundation
import Reel
import ReportJSON

/// `reel show movie|tv ID`: one title's details from the catalog, in the account's language,
/// and whether it is in the saved list.
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a movie's or series' details.",
        discussion: """
            Name the title ('reel show "fight club"', --type and --year to narrow) or give its type and \
            TMDb id ('reel show movie 550'). Details come from TMDb (or the bundled sample catalog \
            without credentials), in the account's language.
            """
    )

    @OptionGroup var global: TimedGlobalOptions
    @OptionGroup var title: TitleArguments
    @Flag(help: "Also list similar titles.") var similar = false
    @Flag(name: .customLong("no-poster"), help: "Do not draw the poster (env REEL_IMAGES=none: no pictures anywhere).") var noPoster = false

    func validate() throws {
        if case .ids(let keys) = try title.request(), keys.count > 1 { throw ValidationError("show takes one title; give one id") }
    }

    func run() async throws {
        try await global.withApplication { app in
            let handle = try global.handle()
            guard let key = try await title.keys(app, for: handle, command: "show").first else { return }
            let details = try await app.titleDetails(key, similar: similar, for: handle)
            if global.json {
                try printJSON(ReportJSON.details(details))
            } else if noPoster || TerminalPictures.capabilities == nil {
                Console.line(details.render(width: Terminal.width))
            } else {
                await DetailsWithPoster(details: details).draw(app)
            }
        }
    }
}
