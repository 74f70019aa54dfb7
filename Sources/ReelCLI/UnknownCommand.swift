import ArgumentParser
import Presentation
import Reel

/// A word where a subcommand goes that names none (`reel moviez`, `reel fav ad movie 550`,
/// `reel help nonexist`): refused before parsing as one usage line naming the nearest commands,
/// instead of ArgumentParser's "3 unexpected arguments" or, for `help`, the root help and exit 0.
/// Only the subcommand's place is checked: `reel fav add moviez` is a title to search for.
enum UnknownCommand {
    /// Throws a `ValidationError` (printed as one line, exit 64) for the first word, at any level,
    /// that is in a subcommand's place and names no subcommand there.
    static func check(_ arguments: [String]) throws {
        var words = arguments[...]
        let help = words.first == "help"
        if help { words = words.dropFirst() }
        var command: any ParsableCommand.Type = ReelCommand.self
        var path: [String] = []
        while let word = words.first, !word.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return }
            if let next = subcommands.first(where: { $0.configuration.commandName == word }) {
                command = next
                path.append(word)
                words = words.dropFirst()
                continue
            }
            // `reel settings` runs `settings show`: a word it takes is not a mistyped command.
            if !help, let fallback = command.configuration.defaultSubcommand, (try? fallback.parse([word])) != nil { return }
            var names = subcommands.filter { $0.configuration.shouldDisplay }.compactMap { $0.configuration.commandName }
            if path.isEmpty && !help { names.append("help") }
            throw ValidationError(message(path, word, NameSuggestion.nearest(to: word, among: names)))
        }
    }

    /// `unknown command 'fav ad'; did you mean 'fav add'?`
    static func message(_ path: [String], _ word: String, _ suggestions: [String]) -> String {
        let prefix = path.map { $0 + " " }.joined()
        let quoted = suggestions.map { "'\(prefix)\($0)'" }
        let text = "unknown command '\(prefix)\(TerminalText.field(word))'"
        guard let last = quoted.last else { return text }
        let named = quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " or " + last
        return text + "; did you mean \(named)?"
    }
}
