/// A production company or a TV network (same shape). `logo_path` is often null and
/// `origin_country` is `""` when unknown.
public struct ProductionCompany: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let logoPath: String?
    public let originCountry: String?

    enum CodingKeys: String, CodingKey {
        case id, name
        case logoPath = "logo_path", originCountry = "origin_country"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.string(.name)
        logoPath = try c.text(.logoPath)
        originCountry = try c.text(.originCountry)
    }
}
