import Crypto

/// One file of the web app: its bytes, their media type and a strong ETag, made once.
struct WebAsset: Sendable {
    let type: String
    let bytes: [UInt8]
    let etag: String

    init(type: String, text: String) {
        self.type = type
        bytes = Array(text.utf8)
        etag = EntityTag.of(bytes)
    }
}
