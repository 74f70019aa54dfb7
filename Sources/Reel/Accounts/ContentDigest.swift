import Crypto

/// The SHA-256 of some content in hex: what names a photo, and the digest an export's summary shows.
public enum ContentDigest {
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
