/// A spoken language: ISO 639-1 code, native name, and (in captures since about 2020) the English
/// name.
public struct SpokenLanguage: Decodable, Sendable, Hashable {
    public let code: String
    public let name: String
    public let englishName: String?

    enum CodingKeys: String, CodingKey {
        case code = "iso_639_1", name, englishName = "english_name"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.string(.code)
        name = try c.text(.name) ?? ""
        englishName = try c.text(.englishName)
    }

    /// The name to show an English reader: the English name, else the native one, else the code.
    public var displayName: String { englishName ?? (name.isEmpty ? code : name) }
}
