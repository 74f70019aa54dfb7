import ArgumentParser
import Catalog
import Foundation
import JSONKit
import Ledger
import Reel

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
        try await runReporting {
            let context = try AccountContext.load(global)
            let language = context.language
            let wanted = person.isEmpty ? Self.defaultPerson : person.joined(separator: " ")
            let (details, images) = try await CatalogLocation.withClient(global) { client in
                let found = try await PersonLookup.resolve(wanted, client: client, language: language)
                return (try await client.person(found.id, language: language), try await client.configuration().images)
            }
            var credits = details.combinedCredits?.filmography ?? []
            let total = credits.count
            if let limit { credits = Array(credits.prefix(limit)) }
            func key(_ credit: PersonCredit) -> MediaKey? { try? MediaKey(credit.media.isMovie ? .movie : .tv, Int64(credit.media.id)) }
            let profileURL = images.url(details.profilePath, kind: .profile, size: "h632")

            if global.json {
                let document: JSONValue = [
                    "id": .integer(Int64(details.id)), "name": .string(details.name), "language": .string(language),
                    "knownForDepartment": .init(details.knownForDepartment.map(JSONValue.string)),
                    "birthday": .init(details.birthday.map { .string($0.description) }),
                    "deathday": .init(details.deathday.map { .string($0.description) }),
                    "placeOfBirth": .init(details.placeOfBirth.map(JSONValue.string)),
                    "alsoKnownAs": .array(details.alsoKnownAs.map(JSONValue.string)),
                    "biography": .init(details.biography.map(JSONValue.string)), "popularity": .double(details.popularity),
                    "profileURL": .init(profileURL.map(JSONValue.string)), "imdbId": .init(details.imdbID.map(JSONValue.string)),
                    "creditCount": .integer(Int64(total)),
                    "credits": .array(credits.compactMap { credit in
                        guard let key = key(credit) else { return nil }
                        return [
                            "mediaType": .string(key.mediaType.rawValue), "id": .integer(key.id), "title": .string(credit.media.title),
                            "date": .init(credit.media.date.map { .string($0.description) }),
                            "year": .init(credit.media.date.map { .integer(Int64($0.year)) }),
                            "role": .init(Self.role(credit).map(JSONValue.string)),
                            "saved": .bool(context.savedAt[key] != nil), "savedAt": JSONForm.time(context.savedAt[key]),
                        ]
                    }),
                ]
                try printJSON(document)
                return
            }
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
            if let profileURL { lines.append("Photo: \(safe(profileURL))") }
            Console.line(lines.joined(separator: "\n"))
            guard !credits.isEmpty else {
                Console.line("\nno credits")
                return
            }
            Console.line("")
            var table = TextTable([" ", "YEAR", "TYPE", "TMDB ID", "TITLE", "ROLE"], alignments: [.left, .right, .left, .right, .left, .left])
            for credit in credits {
                guard let key = key(credit) else { continue }
                table.add([
                    context.savedAt[key] != nil ? TitleList.savedMark : " ", credit.media.date.map { String($0.year) } ?? "",
                    key.mediaType.rawValue, String(key.id), credit.media.title, Self.role(credit) ?? "",
                ])
            }
            Console.line(table.render(width: Terminal.width, flexible: [.init(5, minimum: 10), .init(4, minimum: 10)], droppable: [5, 2]))
            let shown = credits.count < total ? "\(credits.count) of \(total)" : "\(total)"
            Console.line(Terminal.dim(Terminal.fit("\(shown) titles, newest first" + (credits.contains { key($0).flatMap { context.savedAt[$0] } != nil } ? "; \(TitleList.savedMark) saved" : ""))))
        }
    }

    /// `Sherlock Holmes (15 episodes)`, `Director`.
    static func role(_ credit: PersonCredit) -> String? {
        var role = credit.character.flatMap { $0.isEmpty ? nil : $0 } ?? credit.job
        if let count = credit.episodeCount, count > 0, role != nil {
            role! += " (\(count) episode\(count == 1 ? "" : "s"))"
        }
        return role
    }
}
