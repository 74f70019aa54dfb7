import Failures
/// What a photo file really is, read from its bytes (never its name): JPEG or PNG, and its size.
public struct PhotoFormat: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case jpeg = "image/jpeg"
        case png = "image/png"
    }

    public let kind: Kind
    public let width: Int
    public let height: Int

    /// 5 MB, the most a profile photo may weigh.
    public static let maximumBytes = 5_000_000

    /// 40 million pixels, the most a photo may hold: the limit the pictures Reel draws are
    /// decoded within (`PictureDecoder.defaultPixelLimit`), so a photo that is set can be shown.
    public static let maximumPixels = 40_000_000

    /// The largest width or height each format can state: JPEG's are 16 bits, PNG's at most
    /// 2^31 - 1 (PNG specification, 11.2.2).
    public static func maximumDimension(_ kind: Kind) -> Int {
        switch kind {
        case .jpeg: 65_535
        case .png: 2_147_483_647
        }
    }

    /// Reads the structure of a JPEG (markers up to a frame header, and the end-of-image marker)
    /// or a PNG (signature, IHDR first, IEND last), and the size its header claims, which must be
    /// within `maximumPixels`; throws a `DomainError.invalidPhoto` otherwise.
    public static func inspect(_ bytes: [UInt8]) throws(DomainError) -> PhotoFormat {
        guard !bytes.isEmpty else { throw .invalidPhoto("the file is empty") }
        guard bytes.count <= maximumBytes else {
            throw .invalidPhoto("the file has \(GroupedDigits.of(bytes.count)) bytes; the limit is \(GroupedDigits.of(maximumBytes)) (5 MB)")
        }
        let format: PhotoFormat
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            format = try png(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = try jpeg(bytes)
        } else {
            throw .invalidPhoto("the file is neither a JPEG nor a PNG image")
        }
        // Here, not in each format's reader: every format's header passes this way, so one added
        // later is limited as these are. (A JPEG claiming 65,535 × 65,535 was once set: the
        // limit was checked after the fact, on libjpeg-turbo's reading of the header, which
        // fails past 65,500 pixels a side, and a failure there skipped the check.)
        let (pixels, overflow) = format.width.multipliedReportingOverflow(by: format.height)
        guard !overflow, pixels <= maximumPixels else {
            throw .invalidPhoto("\(format.width)×\(format.height) pixels is more than the limit of \(GroupedDigits.of(maximumPixels)) pixels")
        }
        return format
    }

    private static func be32(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    private static func png(_ b: [UInt8]) throws(DomainError) -> PhotoFormat {
        guard b.count >= 8 + 25 + 12 else { throw .invalidPhoto("the PNG is truncated (\(b.count) bytes)") }
        guard be32(b, 8) == 13, b[12..<16].elementsEqual("IHDR".utf8) else {
            throw .invalidPhoto("a PNG signature without a valid IHDR header")
        }
        let width = be32(b, 16), height = be32(b, 20)
        guard width > 0, height > 0 else { throw .invalidPhoto("the PNG has no pixels") }
        guard width <= maximumDimension(.png), height <= maximumDimension(.png) else {
            throw .invalidPhoto("the PNG states a width or height over 2^31 - 1")
        }
        // Walk the chunks: each is length, type, data, CRC; the last must be IEND.
        var at = 8
        var sawEnd = false
        while at + 12 <= b.count {
            let length = be32(b, at)
            guard length >= 0, at + 12 + length <= b.count else { break }
            if b[(at + 4)..<(at + 8)].elementsEqual("IEND".utf8) {
                guard at + 12 + length == b.count else { throw .invalidPhoto("the PNG has data after its IEND chunk") }
                sawEnd = true
                break
            }
            at += 12 + length
        }
        guard sawEnd else { throw .invalidPhoto("the PNG is truncated (no IEND chunk)") }
        return PhotoFormat(kind: .png, width: width, height: height)
    }

    private static func jpeg(_ b: [UInt8]) throws(DomainError) -> PhotoFormat {
        var at = 2
        var size: (Int, Int)?
        while at + 4 <= b.count, size == nil {
            guard b[at] == 0xFF else { throw .invalidPhoto("the JPEG's markers are damaged") }
            let marker = b[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
            if marker == 0xD9 || marker == 0xDA { break }  // end, or scan data before any frame header
            let length = Int(b[at + 2]) << 8 | Int(b[at + 3])
            guard length >= 2, at + 2 + length <= b.count else { throw .invalidPhoto("the JPEG is truncated") }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard length >= 7 else { throw .invalidPhoto("the JPEG's frame header is damaged") }
                size = (Int(b[at + 7]) << 8 | Int(b[at + 8]), Int(b[at + 5]) << 8 | Int(b[at + 6]))
            }
            at += 2 + length
        }
        guard let (width, height) = size, width > 0, height > 0 else {
            throw .invalidPhoto("the JPEG has no frame header (no image size)")
        }
        var end = b.count
        while end > 2, b[end - 1] == 0 { end -= 1 }  // some writers pad after EOI
        guard end >= 2, b[end - 2] == 0xFF, b[end - 1] == 0xD9 else {
            throw .invalidPhoto("the JPEG is truncated (no end-of-image marker)")
        }
        return PhotoFormat(kind: .jpeg, width: width, height: height)
    }
}
