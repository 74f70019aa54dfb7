/// A video (trailer, teaser, clip, ...) hosted on YouTube or Vimeo.
public struct Video: Decodable, Sendable, Hashable {
    public let id: String?
    public let key: String
    public let name: String
    public let site: String
    public let type: String
    public let official: Bool
    public let publishedAt: String?
    public let language: String?
    public let region: String?
    public let size: Int?

    enum CodingKeys: String, CodingKey {
        case id, key, name, site, type, official, size
        case publishedAt = "published_at", language = "iso_639_1", region = "iso_3166_1"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.text(.id)
        key = try c.string(.key)
        name = try c.text(.name) ?? ""
        site = try c.text(.site) ?? ""
        type = try c.text(.type) ?? ""
        official = try c.flag(.official)
        publishedAt = try c.text(.publishedAt)
        language = try c.text(.language)
        region = try c.text(.region)
        size = try c.decodeIfPresent(Int.self, forKey: .size)
    }

    /// Where to watch it: a YouTube or Vimeo page; nil for sites Reel does not know.
    public var watchURL: String? {
        switch site.lowercased() {
        case "youtube": "https://www.youtube.com/watch?v=\(key)"
        case "vimeo": "https://vimeo.com/\(key)"
        default: nil
        }
    }

    public var isTrailer: Bool { type == "Trailer" || type == "Teaser" }
}
