import Catalog
import Ledger

/// A person named on the command line: a TMDb person id, or a name searched for (the most
/// popular match wins, as on TMDb's site).
enum PersonLookup {
    struct Found {
        let id: Int
        let name: String
    }

    static func resolve(_ text: String, client: CatalogClient, language: String) async throws -> Found {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let id = Int(trimmed) {
            guard id > 0 else { throw ReelFailure(message: "a TMDb person id is a positive whole number, not \(trimmed)", status: .usage) }
            do {
                let person = try await client.person(id, language: language)
                return Found(id: person.id, name: person.name)
            } catch CatalogError.notFound {
                throw ReelFailure(message: "TMDb has no person with id \(id)", status: .notFound)
            }
        }
        guard !trimmed.isEmpty else { throw ReelFailure(message: "give a person's name or TMDb id", status: .usage) }
        let page = try await client.searchPeople(trimmed, language: language)
        guard let best = page.results.max(by: { $0.popularity < $1.popularity }) else {
            throw ReelFailure(message: "TMDb knows no person named '\(trimmed)'", status: .notFound)
        }
        return Found(id: best.id, name: best.name)
    }
}
