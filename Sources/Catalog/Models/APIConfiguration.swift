/// `GET /configuration`: where images live and in which sizes. It practically never changes, so
/// it is cached for a week.
public struct APIConfiguration: Decodable, Sendable, Hashable {
    public let images: ImageConfiguration
    public let changeKeys: [String]

    enum CodingKeys: String, CodingKey {
        case images, changeKeys = "change_keys"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        images = try c.decode(ImageConfiguration.self, forKey: .images)
        changeKeys = try c.list(.changeKeys)
    }
}
