/// A season of a series (`seasons[]`); specials are season 0.
public struct Season: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let seasonNumber: Int
    public let episodeCount: Int
    public let airDate: TMDbDate?
    public let overview: String?
    public let posterPath: String?
    public let voteAverage: Double?

    enum CodingKeys: String, CodingKey {
        case id, name, overview
        case seasonNumber = "season_number", episodeCount = "episode_count", airDate = "air_date"
        case posterPath = "poster_path", voteAverage = "vote_average"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.text(.name) ?? ""
        seasonNumber = try c.count(.seasonNumber)
        episodeCount = try c.count(.episodeCount)
        airDate = try c.day(.airDate)
        overview = try c.text(.overview)
        posterPath = try c.text(.posterPath)
        voteAverage = try c.decodeIfPresent(Double.self, forKey: .voteAverage)
    }
}
