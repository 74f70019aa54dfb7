import Crypto
import Foundation
import Hummingbird

/// Strong validators of the answers that carry one (the saved list, the photo, images): the tag
/// of some bytes, whether an `If-None-Match` names it, and the answer that follows: 304 with no
/// body when it does, else the bytes.
enum EntityTag {
    /// The first 16 bytes of the bytes' SHA-256 in hex, quoted.
    static func of(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\"")]
        for byte in SHA256.hash(data: bytes).prefix(16) { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        text.append(UInt8(ascii: "\""))
        return String(decoding: text, as: UTF8.self)
    }

    /// The same tag from a SHA-256 already known in hex (a photo's reference carries its own).
    static func of(sha256Hex: String) -> String { "\"\(sha256Hex.prefix(32))\"" }

    /// Whether an `If-None-Match` header names `etag` (or is `*`).
    static func matches(_ ifNoneMatch: String?, _ etag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    /// 304 with `headers` (but no `Content-Type`) and `etag` when the request's `If-None-Match`
    /// names it, without making the body; else 200 with the body `body` makes.
    static func answer(_ request: Request, etag: String, headers: HTTPFields, body: () throws -> ByteBuffer) rethrows -> Response {
        var headers = headers
        headers[.eTag] = etag
        if matches(request.headers[.ifNoneMatch], etag) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: try body()))
    }
}
