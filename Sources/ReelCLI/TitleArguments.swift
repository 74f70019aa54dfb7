import ArgumentParser
import Foundation
import Presentation
import Reel

/// What `fav add` and `fav remove` take: `movie|series ID...` as always, or a title to search
/// for (`"fight club"`, or `movie heat`), narrowed by `--type` and `--year`. `validate()` checks
/// the words before anything runs; the title is looked up when the command runs.
struct TitleArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("A title, or movie|series and TMDb ids (positive whole numbers).", valueName: "title | type id"))
    var words: [String] = []
    @Option(name: .customLong("type"), help: ArgumentHelp("With a title: only movies or only series.", valueName: "movie|series"))
    var mediaType: MediaType?
    @Option(help: ArgumentHelp("With a title: only titles released (first aired) that year.", valueName: "year")) var year: Int?

    enum Request: Equatable {
        case ids([MediaKey])
        case title(String, MediaType?)
    }

    func validate() throws { _ = try request() }

    /// Ids when a media type is followed by numbers; else a title (after a media type, of that type).
    func request() throws -> Request {
        guard let first = words.first else { throw ValidationError("give a title, or movie or series and TMDb ids") }
        if let year, !(1800...9999).contains(year) { throw ValidationError("--year \(year) is not a year") }
        if let type = MediaType(argument: first) {
            let rest = words.dropFirst()
            guard !rest.isEmpty else { throw ValidationError("give at least one TMDb id") }
            if rest.contains(where: { $0.first.map { $0.isNumber || $0 == "-" || $0 == "+" } ?? false }) {
                guard mediaType == nil, year == nil else { throw ValidationError("--type and --year narrow a title; ids need neither") }
                return .ids(try rest.map { text in
                    do { return try MediaKey(type, parsing: text) } catch { throw ValidationError(refusing: error) }
                })
            }
            if let mediaType, mediaType != type { throw ValidationError("'\(first)' and --type \(mediaType.noun) disagree") }
            return .title(try Self.title(Array(rest)), type)
        }
        return .title(try Self.title(words), mediaType)
    }

    private static func title(_ words: [String]) throws -> String {
        let text = words.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace && $0.properties.generalCategory != .format }) else {
            throw ValidationError("give a title to search for")
        }
        return text
    }

    /// The titles meant: the ids, or the one title the search finds. Several candidates are listed
    /// to pick from at a terminal, else refused (64) naming them; none is not found (66).
    /// `command` (`fav add`, `fav remove`, `show`) is what the messages name.
    func keys(_ app: Application, for handle: AccountHandle, command: String = "fav add") async throws -> [MediaKey] {
        switch try request() {
        case .ids(let keys):
            return keys
        case .title(let text, let type):
            switch try await app.resolveTitle(text, mediaType: type, year: year, for: handle) {
            case .found(let summary):
                return [summary.key]
            case .notFound:
                let kind = type?.noun ?? "movie or series"
                let shown = TerminalText.field(text)
                throw Failure(.notFound, "no \(kind)\(year.map { " from \($0)" } ?? "") matches \"\(shown)\"; try reel search \"\(shown)\"")
            case .ambiguous(let candidates):
                if isatty(0) == 1 && isatty(2) == 1, let chosen = try TitleChoice.ask(text, candidates, command: command) { return [chosen.key] }
                throw TitleChoice.refusal(text, candidates, command: command)
            }
        }
    }
}

/// Several titles a search found: a numbered choice at a terminal, else one line naming them.
enum TitleChoice {
    static let shown = 9

    static func label(_ summary: TitleSummary) -> String {
        // As every list and history line writes a title's id (`tv 1396`), which the commands take.
        "\(summary.key.mediaType.rawValue) \(summary.key.id) \(TerminalText.field(summary.label))"
    }

    /// What did not happen when no title was chosen: `nothing saved`.
    static func nothing(_ command: String) -> String {
        switch command {
        case "fav add": "nothing saved"
        case "fav remove": "nothing removed"
        default: "nothing shown"
        }
    }

    static func refusal(_ text: String, _ candidates: [TitleSummary], command: String) -> Failure {
        let named = candidates.prefix(5).map { label($0) }.joined(separator: ", ")
        let more = candidates.count > 5 ? " and \(candidates.count - 5) more" : ""
        return Failure(
            .usage,
            "\"\(TerminalText.field(text))\" could be \(candidates.count) titles: \(named)\(more); \(nothing(command)). Name one by id (reel \(command) \(candidates[0].key.mediaType.rawValue) \(candidates[0].key.id)) or narrow with --type and --year")
    }

    /// Lists up to nine candidates on stderr and reads a number; `nil` when nothing was chosen.
    static func ask(_ text: String, _ candidates: [TitleSummary], command: String) throws -> TitleSummary? {
        let listed = Array(candidates.prefix(shown))
        var prompt = "\"\(TerminalText.field(text))\" could be:\n"
        for (index, summary) in listed.enumerated() { prompt += "  \(index + 1)  \(label(summary))\n" }
        if candidates.count > listed.count {
            prompt += "  and \(candidates.count - listed.count) more (narrow with --type and --year)\n"
        }
        prompt += "Which one? [1-\(listed.count), Enter to cancel] "
        Console.writeError(prompt)
        guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
            throw Failure(.usage, "cancelled; \(nothing(command))")
        }
        guard let number = Int(line), (1...listed.count).contains(number) else {
            throw Failure(.usage, "'\(TerminalText.field(line))' is not one of 1-\(listed.count); \(nothing(command))")
        }
        return listed[number - 1]
    }
}
