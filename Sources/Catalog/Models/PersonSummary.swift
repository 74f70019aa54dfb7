/// A person as `/search/person` and `/search/multi` list them, with what they are known for
/// (movies and series only; other kinds are skipped).
public struct PersonSummary: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let originalName: String?
    public let knownForDepartment: String?
    public let gender: Int
    public let popularity: Double
    public let profilePath: String?
    public let adult: Bool
    public let knownFor: [MediaSummary]

    enum CodingKeys: String, CodingKey {
        case id, name, gender, popularity, adult
        case originalName = "original_name", knownForDepartment = "known_for_department"
        case profilePath = "profile_path", knownFor = "known_for"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.string(.name)
        originalName = try c.text(.originalName)
        knownForDepartment = try c.text(.knownForDepartment)
        gender = try c.count(.gender)
        popularity = try c.number(.popularity)
        profilePath = try c.text(.profilePath)
        adult = try c.flag(.adult)
        knownFor = try c.list(MultiSearchResult.self, .knownFor).compactMap(\.media)
    }
}
