/// What `/find/{external_id}` returns: the titles TMDb links to an external id (an IMDb id).
public struct FindResults: Decodable, Sendable, Hashable {
    public let movieResults: [MovieSummary]
    public let tvResults: [SeriesSummary]

    enum CodingKeys: String, CodingKey {
        case movieResults = "movie_results", tvResults = "tv_results"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        movieResults = try c.decodeIfPresent([MovieSummary].self, forKey: .movieResults) ?? []
        tvResults = try c.decodeIfPresent([SeriesSummary].self, forKey: .tvResults) ?? []
    }
}
