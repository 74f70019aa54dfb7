import ArgumentParser
import Foundation
import Presentation
import Reel
import ReportJSON

/// `reel person [NAME|ID]`: a person's details and filmography, newest first.
struct Person: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "person",
        abstract: "Show a person and their filmography, newest first (default: Benedict Cumberbatch).",
        discussion: "A name is searched for and the most popular match shown; an id is a TMDb person id."
    )

    /// Benedict Cumberbatch on TMDb.
    static let defaultPerson = "71580"

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("A name or a TMDb person id (default 71580, Benedict Cumberbatch).", valueName: "name|id"))
    var person: [String] = []
    @Option(help: ArgumentHelp("Only the newest N titles of the filmography.", valueName: "n")) var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a positive number") }
    }

    func run() async throws {
        try await global.withApplication { app in
            let wanted = person.isEmpty ? Self.defaultPerson : person.joined(separator: " ")
            let report = try await app.person(wanted, limit: limit, for: try global.handle())
            try global.json ? printJSON(json(report)) : render(report)
        }
    }

    private func json(_ report: PersonReport) -> JSONValue {
        let details = report.details
        return [
            "id": .integer(Int64(details.id)), "name": .string(details.name), "language": .string(report.language),
            "knownForDepartment": .init(details.knownForDepartment.map(JSONValue.string)),
            "birthday": .init(details.birthday.map { .string($0.description) }),
            "deathday": .init(details.deathday.map { .string($0.description) }),
            "placeOfBirth": .init(details.placeOfBirth.map(JSONValue.string)),
            "alsoKnownAs": .array(details.alsoKnownAs.map(JSONValue.string)),
            "biography": .init(details.biography.map(JSONValue.string)), "popularity": .double(details.popularity),
            "profileURL": .init(report.profileURL.map(JSONValue.string)), "imdbId": .init(details.imdbID.map(JSONValue.string)),
            "creditCount": .integer(Int64(report.total)),
            "credits": .array(report.credits.map { credit in
                [
                    "mediaType": .string(credit.key.mediaType.rawValue), "id": .integer(credit.key.id), "title": .string(credit.title),
                    "date": .init(credit.date.map { .string($0.description) }),
                    "year": .init(credit.date.map { .integer(Int64($0.year)) }),
                    "role": .init(credit.role.map(JSONValue.string)),
                    "saved": .bool(credit.savedAt != nil), "savedAt": ReportJSON.time(credit.savedAt),
                ]
            }),
        ]
    }

    private func render(_ report: PersonReport) {
        let details = report.details
        // Names, places and the biography come from TMDb: each made terminal-safe before it is
        // painted or wrapped.
        let safe = TerminalText.field
        var lines = [Terminal.bold(safe(details.name)) + "  " + Terminal.dim("person \(details.id)")]
        var facts: [String] = []
        if let department = details.knownForDepartment { facts.append("known for \(department)") }
        if let birthday = details.birthday {
            facts.append("born \(birthday)" + (details.placeOfBirth.map { " in \($0)" } ?? ""))
        }
        if let deathday = details.deathday { facts.append("died \(deathday)") }
        if !facts.isEmpty { lines.append(Terminal.fit(safe(facts.joined(separator: " · ")))) }
        if let biography = details.biography {
            lines.append("")
            for paragraph in TerminalText.lines(biography) where !paragraph.isEmpty {
                lines.append(contentsOf: Terminal.wrap(paragraph, width: Terminal.width))
            }
        }
        // A narrow terminal puts the URL on a line of its own, whole, as `show` does the poster's.
        if let profileURL = report.profileURL { lines.append(Terminal.fit("Photo: \(safe(profileURL))")) }
        Console.line(lines.joined(separator: "\n"))
        guard report.shown > 0 else {
            Console.line("\nno credits")
            return
        }
        Console.line("")
        var table = TextTable([" ", "YEAR", "TYPE", "TMDB ID", "TITLE", "ROLE"], alignments: [.left, .right, .left, .right, .left, .left])
        for credit in report.credits {
            table.add([
                credit.savedAt != nil ? TitleList.savedMark : " ", credit.date.map { String($0.year) } ?? "",
                credit.key.mediaType.rawValue, String(credit.key.id), credit.title, credit.role ?? "",
            ])
        }
        Console.line(table.render(width: Terminal.width, flexible: [.init(5, minimum: 10), .init(4, minimum: 10)], droppable: [5, 2]))
        let shown = report.shown < report.total ? "\(report.shown) of \(report.total)" : "\(report.total)"
        let saved = report.credits.contains { $0.savedAt != nil } ? "; \(TitleList.savedMark) saved" : ""
        Console.line(Terminal.dim(Terminal.fit("\(shown) titles, newest first" + saved)))
    }
}
