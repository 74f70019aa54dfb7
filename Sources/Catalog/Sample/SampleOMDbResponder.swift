import Foundation
import JSONKit
import Ledger

/// Answers OMDb's API (`GET /?i=tt0137523`, `?t=TITLE&y=YEAR&type=movie`) from the sample
/// catalog's OMDb facts, with OMDb's shapes: the title's object as OMDb writes it, or 200 with
/// `{"Response":"False","Error":…}` for an id or title it does not have. Synthetic movies
/// (`SampleCatalog.withSyntheticMovies`, IMDb ids `tt90000001`…) get generated facts, so a
/// benchmark can fill hundreds of titles.
///
/// The `apikey` is not looked at here: the server in front checks it (`noAPIKey`, `invalidAPIKey`
/// and `limitReached` are its answers). Not answered: search (`s=`), seasons and episodes
/// (`Season=`), XML (`r=xml`); `plot=full` gets the short plot, the only one the facts have.
public struct SampleOMDbResponder: Sendable {
    public typealias Answer = SampleResponder.Answer

    public let catalog: SampleCatalog

    public init(catalog: SampleCatalog) { self.catalog = catalog }

    /// OMDb's error body: `{"Response":"False","Error":"…"}`.
    public static func error(_ message: String, status: Int = 200) -> Answer {
        Answer(status: status, body: Array(#"{"Response":"False","Error":"#.utf8) + JSONValue.string(message).encoded() + [UInt8(ascii: "}")])
    }

    // OMDb's own errors.
    public static let incorrectIMDbID = error("Incorrect IMDb ID.")
    public static let movieNotFound = error("Movie not found!")
    public static let noAPIKey = error("No API key provided.", status: 401)
    public static let invalidAPIKey = error("Invalid API key!", status: 401)
    public static let limitReached = error("Request limit reached!", status: 401)

    /// Answers OMDb's query (parameter names in any case, as OMDb reads them; the first of a
    /// repeated one counts). By id when `i` is given, else by title (`t`, with `y` and `type`);
    /// neither is OMDb's "Incorrect IMDb ID.".
    public func respond(query: [QueryItem]) -> Answer {
        var params: [String: String] = [:]
        for item in query where params[item.name.lowercased()] == nil {
            params[item.name.lowercased()] = item.value.trimmingCharacters(in: .whitespaces)
        }
        if let id = params["i"], !id.isEmpty {
            guard let fact = catalog.omdbFact(imdbID: id.lowercased()) else { return Self.incorrectIMDbID }
            return Answer(status: 200, body: fact.encoded())
        }
        if let title = params["t"], !title.isEmpty {
            return byTitle(title, year: params["y"], type: params["type"])
        }
        return Self.incorrectIMDbID
    }

    /// The title named `title` (ignoring case and accents), in year `year` (a series' years
    /// include it) and of `type` when given; of several, the one with the most IMDb votes.
    private func byTitle(_ title: String, year: String?, type: String?) -> Answer {
        let wanted = TextFolding.fold(title)
        let year = year.flatMap { $0.isEmpty ? nil : $0 }
        let kind = type.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        let found = catalog.omdbFacts.filter { fact in
            guard let name = fact.title, TextFolding.fold(name) == wanted else { return false }
            if let kind, fact.type != kind { return false }
            // A year that is no number matches nothing.
            if let year, !(Int(year).map { fact.years?.contains($0) ?? false } ?? false) { return false }
            return true
        }
        guard let best = found.max(by: { $0.votes < $1.votes }) else { return Self.movieNotFound }
        return Answer(status: 200, body: best.encoded())
    }
}
