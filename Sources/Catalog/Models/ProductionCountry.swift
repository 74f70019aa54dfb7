/// A production country: ISO 3166-1 code and English name.
public struct ProductionCountry: Decodable, Sendable, Hashable {
    public let code: String
    public let name: String

    enum CodingKeys: String, CodingKey {
        case code = "iso_3166_1", name
    }
}
