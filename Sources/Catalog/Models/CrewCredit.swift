/// Someone in a title's crew (`credits.crew[]`): a job in a department.
public struct CrewCredit: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let job: String
    public let department: String
    public let creditID: String?
    public let profilePath: String?

    enum CodingKeys: String, CodingKey {
        case id, name, job, department
        case creditID = "credit_id", profilePath = "profile_path"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.string(.name)
        job = try c.text(.job) ?? ""
        department = try c.text(.department) ?? ""
        creditID = try c.text(.creditID)
        profilePath = try c.text(.profilePath)
    }
}
