/// A stored profile photo, as events name it: the SHA-256 of its bytes (which are kept sealed
/// beside the log, under the account's key), its content type, size and dimensions.
public struct PhotoReference: Sendable, Hashable {
    /// Lowercase hex SHA-256 of the file's bytes.
    public let sha256: String
    public let contentType: String
    public let bytes: Int
    public let width: Int
    public let height: Int

    public init(sha256: String, format: PhotoFormat, bytes: Int) {
        self.sha256 = sha256
        self.contentType = format.kind.rawValue
        self.bytes = bytes
        self.width = format.width
        self.height = format.height
    }

    public init(sha256: String, contentType: String, bytes: Int, width: Int, height: Int) {
        self.sha256 = sha256
        self.contentType = contentType
        self.bytes = bytes
        self.width = width
        self.height = height
    }

    var json: JSONValue {
        ["sha256": .string(sha256), "contentType": .string(contentType), "bytes": .integer(Int64(bytes)),
         "width": .integer(Int64(width)), "height": .integer(Int64(height))]
    }

    init?(json: JSONValue) {
        guard let sha = json["sha256"]?.stringValue, sha.utf8.count == 64,
            let type = json["contentType"]?.stringValue, let bytes = json["bytes"]?.integerValue,
            let width = json["width"]?.integerValue, let height = json["height"]?.integerValue
        else { return nil }
        self.init(sha256: sha, contentType: type, bytes: Int(bytes), width: Int(width), height: Int(height))
    }
}
