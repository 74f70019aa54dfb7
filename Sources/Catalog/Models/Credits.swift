/// `GET /movie/{id}/credits`, `/tv/{id}/credits`, or the appended `credits` object (no `id`).
public struct Credits: Decodable, Sendable, Hashable {
    public let id: Int?
    public let cast: [CastCredit]
    public let crew: [CrewCredit]

    enum CodingKeys: String, CodingKey { case id, cast, crew }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int.self, forKey: .id)
        cast = try c.list(.cast)
        crew = try c.list(.crew)
    }

    public var directors: [CrewCredit] { crew.filter { $0.job == "Director" } }
}
