/// One row of `/search/multi`: a movie, a series or a person. Rows whose `media_type` this
/// version does not know decode as `.unknown` and are dropped by `Page<MultiSearchResult>`
/// users through `known`, so a new kind of result on TMDb never breaks a search.
public enum MultiSearchResult: Decodable, Sendable, Hashable {
    case movie(MovieSummary)
    case series(SeriesSummary)
    case person(PersonSummary)
    case unknown(mediaType: String)

    enum CodingKeys: String, CodingKey { case mediaType = "media_type" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decodeIfPresent(String.self, forKey: .mediaType) ?? ""
        switch kind {
        case "movie": self = .movie(try MovieSummary(from: decoder))
        case "tv": self = .series(try SeriesSummary(from: decoder))
        case "person": self = .person(try PersonSummary(from: decoder))
        default: self = .unknown(mediaType: kind)
        }
    }

    public var media: MediaSummary? {
        switch self {
        case .movie(let m): .movie(m)
        case .series(let s): .series(s)
        case .person, .unknown: nil
        }
    }
}
