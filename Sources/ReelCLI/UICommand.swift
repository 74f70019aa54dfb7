import ArgumentParser
import Foundation
import Reel
import Stores
import ReelApp

/// `reel ui` (and `reel` alone at a terminal): the terminal app. Parses the options every
/// command takes and hands over to ReelApp, which owns the terminal until the app ends.
struct UICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "Open the terminal app: browse movies and series, see what you saved (also 'reel' alone at a terminal).",
        discussion: "Keys: 1-5 tabs, j/k or arrows move, g/G first/last, ctrl-d/ctrl-u half a screen, ? all keys, q quits."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await runReporting {
            // A data directory that is a file is a mistake to say before the screen is taken.
            try Application.checkDataDirectory(global.resolvedDataDirectory)
            let options = TerminalApp.Options(
                dataDirectory: global.resolvedDataDirectory, handle: try global.handle(), offline: global.isOffline,
                environment: ProcessInfo.processInfo.environment, store: global.store)
            do {
                try await TerminalApp.run(options) { Application($0) }
            } catch let error as TerminalAppError {
                throw ReelFailure(message: error.description, status: error.isUsage ? .usage : .unavailable)
            }
        }
    }
}
