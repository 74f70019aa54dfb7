import JSONKit

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

    /// Refuses a reference the `settings photo` command could not have made (one that comes from
    /// an import): a digest that is not 64 lowercase hex digits, a type other than JPEG or PNG, a
    /// size outside 1 byte to 5 MB, or a width or height the format cannot state. Where the photo's
    /// bytes come along, they are checked by content as the command checks a file.
    public func check() throws(DomainError) {
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw .invalidPhoto("the reference's SHA-256 is not 64 lowercase hex digits")
        }
        guard let kind = PhotoFormat.Kind(rawValue: contentType) else {
            throw .invalidPhoto("the reference names a type other than image/jpeg or image/png")
        }
        guard (1...PhotoFormat.maximumBytes).contains(bytes) else {
            throw .invalidPhoto("the reference states \(bytes) bytes; a photo has 1 to \(PhotoFormat.maximumBytes) (5 MB)")
        }
        let largest = PhotoFormat.maximumDimension(kind)
        guard (1...largest).contains(width), (1...largest).contains(height) else {
            throw .invalidPhoto("the reference states \(width)x\(height) pixels; a \(kind == .png ? "PNG" : "JPEG") has 1 to \(largest) each way")
        }
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
