import Catalog
import Foundation
import Ledger

extension Application {
    /// The movie or series `text` names, searched in the account's language among `mediaType`
    /// (movies and series when `nil`) released or first aired in `year` (any when `nil`), on the
    /// first page of results (TMDb's most relevant). One result, or one whose title is exactly the
    /// text, is found; several are ambiguous and nothing is chosen for the person.
    public func resolveTitle(
        _ text: String, mediaType: MediaType? = nil, year: Int? = nil, for handle: AccountHandle
    ) async throws -> TitleResolution {
        let kind: SearchQuery.Kind = switch mediaType {
        case .movie: .movie
        case .tv: .tv
        case nil: .multi
        }
        // TMDb's search across both kinds takes no year: narrowed here.
        var candidates = try await search(SearchQuery(text, kind: kind, year: mediaType == nil ? nil : year), for: handle).titles.map(\.summary)
        if let year, mediaType == nil { candidates = candidates.filter { $0.year == year } }
        let wanted = TextFolding.fold(text.trimmingCharacters(in: .whitespaces))
        let exact = candidates.filter { summary in
            TextFolding.fold(summary.title) == wanted || summary.originalTitle.map(TextFolding.fold) == wanted
        }
        if candidates.count == 1 { return .found(candidates[0]) }
        if exact.count == 1 { return .found(exact[0]) }
        if candidates.isEmpty { return .notFound }
        let exactKeys = Set(exact.map(\.key))
        return .ambiguous(exact + candidates.filter { !exactKeys.contains($0.key) })
    }
}
