/// A series' creator (`created_by[]`).
public struct Creator: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let creditID: String?
    public let profilePath: String?

    enum CodingKeys: String, CodingKey {
        case id, name
        case creditID = "credit_id", profilePath = "profile_path"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.string(.name)
        creditID = try c.text(.creditID)
        profilePath = try c.text(.profilePath)
    }
}
