/// The image formats Reel reads, told by their first bytes (never by a file name or a
/// content type, which a server or a user may get wrong).
public enum PictureFormat: String, Sendable {
    case jpeg = "JPEG"
    case png = "PNG"

    public init?(sniffing bytes: [UInt8]) {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            self = .jpeg
        } else if bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else {
            return nil
        }
    }

    /// The width and height the header states, read by its structure alone (no codec): a
    /// JPEG's first frame header (SOF0–SOF15), a PNG's IHDR; `nil` when it is not found.
    /// libjpeg-turbo refuses a JPEG over 65,500 pixels a side without telling its size, so the
    /// pixel limit (`PictureDecoder.dimensions`) is checked on what the file claims.
    func claimedSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        switch self {
        case .jpeg:
            var at = 2
            while at + 4 <= bytes.count, bytes[at] == 0xFF {
                let marker = bytes[at + 1]
                if marker == 0xFF { at += 1; continue }  // fill byte
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
                if marker == 0xD9 || marker == 0xDA { return nil }  // the end, or scan data before any frame header
                let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard length >= 2, at + 2 + length <= bytes.count else { return nil }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard length >= 7 else { return nil }
                    return (Int(bytes[at + 7]) << 8 | Int(bytes[at + 8]), Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]))
                }
                at += 2 + length
            }
            return nil
        case .png:
            // The signature, then IHDR first: length 13, the type, width and height (big-endian).
            guard bytes.count >= 24, bytes[8..<16].elementsEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) else { return nil }
            func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (be32(16), be32(20))
        }
    }

    /// The MIME type, for files written and for HTTP.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        }
    }
}
