/// Someone in a title's cast (`credits.cast[]`).
public struct CastCredit: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let character: String?
    public let order: Int?
    public let creditID: String?
    public let knownForDepartment: String?
    public let gender: Int
    public let profilePath: String?

    enum CodingKeys: String, CodingKey {
        case id, name, character, order, gender
        case creditID = "credit_id", knownForDepartment = "known_for_department", profilePath = "profile_path"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.string(.name)
        character = try c.text(.character)
        order = try c.decodeIfPresent(Int.self, forKey: .order)
        creditID = try c.text(.creditID)
        knownForDepartment = try c.text(.knownForDepartment)
        gender = try c.count(.gender)
        profilePath = try c.text(.profilePath)
    }
}
