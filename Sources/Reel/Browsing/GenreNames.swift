import Catalog
import Failures
import Ledger

/// `--genre` values made TMDb genre ids: names in the account's language (case and accents
/// ignored, English names too), or ids.
enum GenreNames {
    static func resolve(_ wanted: [String], mediaType: MediaType, in genres: GenreList, client: CatalogClient) async throws -> [Genre] {
        guard !wanted.isEmpty else { return [] }
        var english: GenreList?
        var found: [Genre] = []
        for name in wanted {
            if let id = Int(name), id > 0 {
                // An id the genre list does not have finds nothing: a mistake, as an unknown name is
                // (with no list at all, offline and not cached, the id is taken on trust).
                guard let known = genres.name(of: id) ?? (genres.genres.isEmpty ? "#\(id)" : nil) else {
                    let listed = genres.genres.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
                    throw Failure(.usage, "no \(mediaType.noun) genre has the id \(id); the genres are: \(listed)")
                }
                found.append(Genre(id: id, name: known))
                continue
            }
            if let genre = match(name, in: genres) {
                found.append(genre)
                continue
            }
            if english == nil { english = try await client.genres(mediaType, language: "en-US") }
            if let english, let genre = match(name, in: english) {
                found.append(Genre(id: genre.id, name: genres.name(of: genre.id) ?? genre.name))
                continue
            }
            let noun = mediaType.noun
            throw Failure(.usage, "no \(noun) genre '\(name)'; the genres are: \(genres.genres.map(\.name).joined(separator: ", "))")
        }
        return found
    }

    private static func match(_ name: String, in list: GenreList) -> Genre? {
        let folded = TextFolding.fold(name)
        return list.genres.first { TextFolding.fold($0.name) == folded }
    }
}
