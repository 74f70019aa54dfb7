import ArgumentParser
import Foundation
import Reel
import ReportJSON
import TerminalGraphics

/// `reel settings`: show them, or change the name, photo or language.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show the profile settings, or change them.",
        subcommands: [Show.self, Name.self, Photo.self, Language.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show name, photo and language.")
        @OptionGroup var global: TimedAccountOptions
        @Option(name: .customLong("as-of"), help: AsOfArgument.help, transform: AsOfArgument.parse) var asOf: AsOfArgument?
        @Flag(name: .customLong("no-photo"), help: "Do not draw the photo (env REEL_IMAGES=none: no pictures anywhere).") var noPhoto = false

        func run() async throws {
            try await global.withApplication { app in
                let handle = try global.handle()
                let view = try app.account(handle, asOf: asOf?.value)
                try global.json ? printJSON(ReportJSON.settings(view)) : render(view, handle, app)
            }
        }

        /// The account's photo drawn in 16 columns, when stdout is a terminal that shows pictures
        /// and the terminal is wide enough for it beside the table.
        private func drawnPhoto(of view: AccountView, _ app: Application) -> RenderedPicture? {
            // The photo first: without one the terminal is not asked anything.
            guard !noPhoto, view.state.settings.photo != nil, Terminal.width >= 60, TerminalPictures.capabilities != nil else { return nil }
            do {
                guard let bytes = try app.photoBytes(in: view) else { return nil }
                return TerminalPictures.renderOrNote(bytes, columns: 16, rows: min(12, max(1, Terminal.height - 2)), what: "photo")
            } catch {
                Terminal.notice("the photo is not shown: \((error as? any KindedError)?.summary ?? String(describing: error))")
                return nil
            }
        }

        private func render(_ view: AccountView, _ handle: AccountHandle, _ app: Application) {
            let settings = view.state.settings
            if let asOf = view.asOf { Console.line(Terminal.dim("as of \(Timestamp.point(asOf))")) }
            var table = TextTable(["SETTING", "VALUE"])
            table.add(["account", handle.value])
            table.add(["name", settings.name?.value ?? "(not set)"])
            table.add(["language", "\(settings.language) (\(settings.language.languageName))"])
            let photo = settings.photo.map {
                "\($0.contentType == "image/png" ? "PNG" : "JPEG") \($0.width)x\($0.height), \(Counted.of($0.bytes, "byte")), sha256 \($0.sha256.prefix(12))…"
            }
            table.add(["photo", photo ?? "(none)"])
            // A long name (up to 100 characters, perhaps CJK) wraps within the terminal; the photo,
            // where the terminal shows pictures, stands at the left of the table.
            if let picture = drawnPhoto(of: view, app) {
                let text = table.render(width: Terminal.width - picture.columns - 2, flexible: [.init(1, minimum: 12)], wrapping: 1)
                TerminalPictures.draw(picture, beside: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            } else {
                Console.line(table.render(width: Terminal.width, flexible: [.init(1, minimum: 12)], wrapping: 1))
            }
            if view.isUnopened { Console.line(Terminal.dim("the defaults: the account '\(handle)' has made no change yet")) }
        }
    }

    struct Name: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "name", abstract: "Set the display name (1-100 characters).")
        @OptionGroup var global: AccountOptions
        @Argument(help: "The new name.") var name: String

        func validate() throws { _ = try profileName() }

        func run() async throws {
            try await global.withApplication { app in
                try CommandOutput.render(try app.change(.rename(try profileName()), for: try global.handle()), json: global.json)
            }
        }

        /// The name as the domain takes it; `validate()` refuses one it does not (exit 64).
        private func profileName() throws -> ProfileName {
            do { return try ProfileName(typed: name) } catch { throw ValidationError(refusing: error) }
        }
    }

    struct Photo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo",
            abstract: "Set the profile photo from a JPEG or PNG file (up to 5 MB), or remove it with --remove.",
            discussion: "The file is checked by its content, not its name, and stored sealed under the account's key.")
        @OptionGroup var global: AccountOptions
        @Argument(help: ArgumentHelp("A JPEG or PNG file.", valueName: "path"), completion: .file(extensions: ["jpg", "jpeg", "png", "JPG", "JPEG", "PNG"]), transform: PathArgument.parse) var path: String?
        @Flag(help: "Remove the photo.") var remove = false

        func validate() throws {
            if remove && path != nil { throw ValidationError("give a photo file or --remove, not both") }
            if !remove && path == nil { throw ValidationError("give a photo file (JPEG or PNG), or --remove") }
        }

        func run() async throws {
            try await global.withApplication { app in
                guard let path else {
                    try CommandOutput.render(try app.change(.removePhoto, for: try global.handle()), json: global.json)
                    return
                }
                let bytes = try Application.readPhoto(at: path)
                try CommandOutput.render(try app.changePhoto(to: bytes, from: path, for: try global.handle()), json: global.json)
            }
        }
    }

    struct Language: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "language",
            abstract: "Set the language for titles and overviews: a TMDb tag such as en-US, de-DE, pt-BR or fr.")
        @OptionGroup var global: AccountOptions
        @Argument(help: "The language tag.", completion: Completions.languageTags) var tag: String

        func validate() throws { _ = try languageTag() }

        func run() async throws {
            try await global.withApplication { app in
                try CommandOutput.render(try app.change(.switchLanguage(try languageTag()), for: try global.handle()), json: global.json)
            }
        }

        /// The tag as the domain takes it; `validate()` refuses one it does not (exit 64).
        private func languageTag() throws -> LanguageTag {
            do { return try LanguageTag(typed: tag) } catch { throw ValidationError(refusing: error) }
        }
    }
}
