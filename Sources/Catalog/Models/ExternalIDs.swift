/// `external_ids` of a movie or series (appended to its details, or `GET /tv/{id}/external_ids`):
/// the IMDb id is the one Reel uses, to ask OMDb. Other ids are not read.
public struct ExternalIDs: Decodable, Sendable, Hashable {
    public let imdbID: String?

    enum CodingKeys: String, CodingKey { case imdbID = "imdb_id" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // TMDb writes a missing id as null or "" (never another type, but a stray one is no reason
        // to lose the title's details).
        imdbID = (try? c.text(.imdbID)) ?? nil
    }
}
