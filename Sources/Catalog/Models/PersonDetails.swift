/// `GET /person/{id}`, optionally with `append_to_response=combined_credits`.
public struct PersonDetails: Decodable, Sendable, Hashable {
    public let id: Int
    public let imdbID: String?
    public let name: String
    public let alsoKnownAs: [String]
    public let biography: String?
    public let birthday: TMDbDate?
    public let deathday: TMDbDate?
    public let placeOfBirth: String?
    /// TMDb's codes: 0 not set, 1 female, 2 male, 3 non-binary.
    public let gender: Int
    public let knownForDepartment: String?
    public let homepage: String?
    public let popularity: Double
    public let profilePath: String?
    public let adult: Bool
    public let combinedCredits: CombinedCredits?

    enum CodingKeys: String, CodingKey {
        case id, name, biography, birthday, deathday, gender, homepage, popularity, adult
        case imdbID = "imdb_id", alsoKnownAs = "also_known_as", placeOfBirth = "place_of_birth"
        case knownForDepartment = "known_for_department", profilePath = "profile_path"
        case combinedCredits = "combined_credits"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        imdbID = try c.text(.imdbID)
        name = try c.string(.name)
        alsoKnownAs = try c.list(.alsoKnownAs)
        biography = try c.text(.biography)
        birthday = try c.day(.birthday)
        deathday = try c.day(.deathday)
        placeOfBirth = try c.text(.placeOfBirth)
        gender = try c.count(.gender)
        knownForDepartment = try c.text(.knownForDepartment)
        homepage = try c.text(.homepage)
        popularity = try c.number(.popularity)
        profilePath = try c.text(.profilePath)
        adult = try c.flag(.adult)
        combinedCredits = try c.decodeIfPresent(CombinedCredits.self, forKey: .combinedCredits)
    }
}
