import Foundation
import Catalog
import Failures
import Ledger

/// A person named by a front end: a TMDb person id, or a name searched for (the most popular
/// match wins, as on TMDb's site).
enum PersonLookup {
    static func resolve(_ text: String, client: CatalogClient, language: String) async throws -> PersonName {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let id = Int(trimmed) {
            guard id > 0 else { throw Failure(.usage, "a TMDb person id is a positive whole number, not \(trimmed)") }
            do {
                let person = try await client.person(id, language: language)
                return PersonName(id: person.id, name: person.name)
            } catch CatalogError.notFound {
                throw Failure(.notFound, client.source.hasNo("person with id \(id)"))
            }
        }
        guard !trimmed.isEmpty else { throw Failure(.usage, "give a person's name or TMDb id") }
        let page = try await client.searchPeople(trimmed, language: language)
        guard let best = page.results.max(by: { $0.popularity < $1.popularity }) else {
            throw Failure(.notFound, client.source.knowsNo("person named '\(trimmed)'"))
        }
        return PersonName(id: best.id, name: best.name)
    }
}
