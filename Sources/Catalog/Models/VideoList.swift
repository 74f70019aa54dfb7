/// `GET /movie/{id}/videos`, `/tv/{id}/videos`, or the appended `videos` object (which has no `id`).
public struct VideoList: Decodable, Sendable, Hashable {
    public let id: Int?
    public let results: [Video]

    enum CodingKeys: String, CodingKey { case id, results }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int.self, forKey: .id)
        results = try c.list(.results)
    }

    /// Trailers and teasers with a watchable URL, official ones first, newest first.
    public var trailers: [Video] {
        results.filter { $0.isTrailer && $0.watchURL != nil }.sorted {
            if $0.official != $1.official { return $0.official }
            if $0.type != $1.type { return $0.type == "Trailer" }
            return ($0.publishedAt ?? "") > ($1.publishedAt ?? "")
        }
    }
}
