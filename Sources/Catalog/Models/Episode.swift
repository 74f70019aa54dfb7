/// An episode as a series' `last_episode_to_air` / `next_episode_to_air` shows it.
public struct Episode: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let seasonNumber: Int
    public let episodeNumber: Int
    public let airDate: TMDbDate?
    public let runtime: Int?
    public let episodeType: String?

    enum CodingKeys: String, CodingKey {
        case id, name, runtime
        case seasonNumber = "season_number", episodeNumber = "episode_number"
        case airDate = "air_date", episodeType = "episode_type"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.text(.name) ?? ""
        seasonNumber = try c.count(.seasonNumber)
        episodeNumber = try c.count(.episodeNumber)
        airDate = try c.day(.airDate)
        runtime = try c.decodeIfPresent(Int.self, forKey: .runtime)
        episodeType = try c.text(.episodeType)
    }
}
