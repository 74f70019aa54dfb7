/// The collection a movie belongs to (`belongs_to_collection`), null for most movies.
public struct MovieCollection: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let posterPath: String?
    public let backdropPath: String?

    enum CodingKeys: String, CodingKey {
        case id, name
        case posterPath = "poster_path", backdropPath = "backdrop_path"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.string(.name)
        posterPath = try c.text(.posterPath)
        backdropPath = try c.text(.backdropPath)
    }
}
