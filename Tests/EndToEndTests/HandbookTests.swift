import EndToEndSupport
import Foundation
import Testing

/// The README and the handbook (`Sources/Reel/Reel.docc`) name only commands `reel` has: every
/// `reel COMMAND` and `reel GROUP SUBCOMMAND` in their code (fenced blocks and code spans) is one
/// `reel help` knows. A command renamed or removed, or a typo in a document, fails here.
@Suite struct HandbookTests {
    /// Mistyped commands the documents show on purpose, to say how `reel` answers them: each must
    /// still be shown, and `reel help` must refuse it (64).
    static let shownMistakes: Set<String> = ["moviez", "fav ad", "account exprot", "nonexist"]

    @Test func everyCommandTheDocumentsNameIsOneReelHelpKnows() async throws {
        let named = try Self.commandsNamed()
        #expect(named[["ui"]] != nil && named[["store", "move"]] != nil && named.count > 40, "commands found: \(named.keys)")

        // A first word is a command of its own, or a group whose second word must be one of its
        // subcommands; after any other command the second word is an argument (`show movie`).
        var groups: Set<String> = []
        for first in Set(named.keys.compactMap(\.first)).sorted() where !Self.shownMistakes.contains(first) {
            let out = try await Harness.reel(["help", first])
            #expect(out.status == 0, "'reel \(first)', named in \(Self.where(named[[first]])), is not a command: \(out.stderr)")
            if out.stdout.contains("SUBCOMMANDS:") { groups.insert(first) }
        }
        for words in named.keys.sorted(by: Self.inOrder)
        where words.count == 2 && groups.contains(words[0]) && !Self.shownMistakes.contains(words.joined(separator: " ")) {
            let out = try await Harness.reel(["help"] + words)
            #expect(out.status == 0, "'reel \(words.joined(separator: " "))', named in \(Self.where(named[words])), is not a command: \(out.stderr)")
        }
        if named[[]] != nil {
            let out = try await Harness.reel(["help"])
            #expect(out.status == 0, "'reel help' exits \(out.status): \(out.stderr)")
        }
    }

    @Test func theMistakesTheDocumentsShowAreRefused() async throws {
        let named = Set(try Self.commandsNamed().keys.map { $0.joined(separator: " ") })
        for mistake in Self.shownMistakes.sorted() {
            #expect(named.contains(mistake), "no document shows 'reel \(mistake)' any more: take it out of shownMistakes")
            let out = try await Harness.reel(["help"] + mistake.split(separator: " ").map(String.init))
            #expect(out.status == 64, "'reel help \(mistake)' exits \(out.status): \(out.stderr)")
        }
    }

    /// Every command the documents name, as its one or two words (none: `reel help` itself), with
    /// the documents that name it.
    static func commandsNamed() throws -> [[String]: Set<String>] {
        var named: [[String]: Set<String>] = [:]
        for (name, text) in try documents() {
            for code in try code(in: text) {
                for words in try commands(in: code) { named[words, default: []].insert(name) }
            }
        }
        return named
    }

    /// The README and every article of the handbook, by file name.
    static func documents() throws -> [(String, String)] {
        let catalog = Harness.root + "/Sources/Reel/Reel.docc"
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog).filter { $0.hasSuffix(".md") }.sorted()
        let paths = [("README.md", Harness.root + "/README.md")] + articles.map { ($0, catalog + "/" + $0) }
        return try paths.map { ($0.0, try String(contentsOfFile: $0.1, encoding: .utf8)) }
    }

    /// The code of a Markdown document: each fenced block, and each code span of the text around
    /// them (a span may go on over a line break).
    static func code(in markdown: String) throws -> [String] {
        var blocks: [String] = []
        var prose: [Substring] = []
        var block: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let finished = block { blocks.append(finished.joined(separator: "\n")) }
                block = block == nil ? [] : nil
            } else if block != nil {
                block!.append(line)
            } else {
                prose.append(line)
            }
        }
        let spans = try matches(of: #"(?<!`)(`+)(?!`)([\s\S]+?)(?<!`)\1(?!`)"#, in: prose.joined(separator: "\n"))
        return blocks + spans.compactMap { $0[2] }
    }

    /// The commands a piece of code names: after each `reel` (the command itself, not `reel-bench`
    /// or a path such as `~/.config/reel/keys.toml`), its first one or two words, named as commands
    /// are (lowercase, digits, `-`); an option, a value or punctuation ends them, and a `reel` whose
    /// first word is an option (`reel --verbose show`) names none. `reel help X` names X.
    static func commands(in code: String) throws -> [[String]] {
        try matches(of: #"(?<![\w.$-])reel\s+(\S+)(?:\s+(\S+))?(?:\s+(\S+))?"#, in: code).compactMap { groups in
            var words: [String] = []
            for token in groups.dropFirst().compactMap({ $0 }) {
                var word = Substring(token)
                while let last = word.last, ":;,.)'\"".contains(last) { word = word.dropLast() }
                guard word.range(of: "^[a-z][a-z0-9-]*$", options: .regularExpression) != nil else { break }
                words.append(String(word))
                if word.count != token.count { break }
            }
            if words.first == "help" { return Array(words.dropFirst().prefix(2)) }
            return words.isEmpty ? nil : Array(words.prefix(2))
        }
    }

    /// Each match of `pattern` in `text`: the whole match and each group (nil where a group took
    /// no part).
    static func matches(of pattern: String, in text: String) throws -> [[String?]] {
        let regex = try NSRegularExpression(pattern: pattern)
        let whole = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: whole.length)).map { match in
            (0..<match.numberOfRanges).map { match.range(at: $0).location == NSNotFound ? nil : whole.substring(with: match.range(at: $0)) }
        }
    }

    static func inOrder(_ a: [String], _ b: [String]) -> Bool { a.joined(separator: " ") < b.joined(separator: " ") }

    static func `where`(_ documents: Set<String>?) -> String { (documents ?? []).sorted().joined(separator: ", ") }
}
