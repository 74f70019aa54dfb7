import CPNG
import CTurboJPEG

/// Decodes JPEG (libjpeg-turbo) and PNG (libpng) bytes into a `Picture`. The header is read first
/// and a picture of more pixels than `pixelLimit` is refused before a byte of it is decompressed,
/// so a small file that claims 60,000 × 60,000 pixels (a decompression bomb) costs nothing.
/// A truncated or corrupt file is a `PictureError`, never a crash or a grey half-picture.
public struct PictureDecoder: Sendable {
    /// 40 million pixels: TMDb's largest originals (about 4,000 × 6,000) fit, with room.
    public static let defaultPixelLimit = 40_000_000

    public let pixelLimit: Int

    public init(pixelLimit: Int = PictureDecoder.defaultPixelLimit) {
        self.pixelLimit = pixelLimit
    }

    /// The format and size the bytes claim, read from the header only, within the pixel limit.
    /// Every format's header passes here, and `decode` starts here: a format added to
    /// `PictureFormat` is limited as the others are, before its codec sees a byte.
    public func dimensions(of bytes: [UInt8]) throws(PictureError) -> (format: PictureFormat, width: Int, height: Int) {
        guard let format = PictureFormat(sniffing: bytes) else { throw .unknownFormat }
        let width: Int, height: Int
        if let claimed = format.claimedSize(bytes) {
            (width, height) = claimed
        } else {
            // No size found by the structure alone: the codec says what is wrong.
            switch format {
            case .jpeg:
                let header = try JPEGHeader(bytes)
                (width, height) = (header.width, header.height)
            case .png:
                (width, height) = try PNGReader.read(bytes) { image in .success((Int(image.width), Int(image.height))) }
            }
        }
        try checkLimit(width, height)
        return (format, width, height)
    }

    /// The whole picture. With `atLeast`, a JPEG is decoded at the smallest of libjpeg-turbo's
    /// scales (1/8 … 1) that still covers that many pixels each way: a poster drawn in 30 cells
    /// needs a few hundred pixels, not an original's thousands.
    public func decode(_ bytes: [UInt8], atLeast wanted: (width: Int, height: Int)? = nil) throws(PictureError) -> Picture {
        let (format, width, height) = try dimensions(of: bytes)
        switch format {
        case .jpeg: return try decodeJPEG(bytes, claimed: (width, height), atLeast: wanted)
        case .png: return try decodePNG(bytes, claimed: (width, height))
        }
    }

    /// The codec's reading of the header must be the size that was checked.
    private static func same(_ read: (Int, Int), _ claimed: (Int, Int), _ format: PictureFormat) throws(PictureError) {
        guard read == claimed else {
            throw .undecodable(format: format.rawValue, reason: "its headers disagree on its size (\(claimed.0)×\(claimed.1), \(read.0)×\(read.1))")
        }
    }

    private func checkLimit(_ width: Int, _ height: Int) throws(PictureError) {
        guard width > 0, height > 0 else { throw .undecodable(format: "image", reason: "it has no pixels") }
        guard width.multipliedReportingOverflow(by: height).partialValue <= pixelLimit, width <= 1 << 20, height <= 1 << 20 else {
            throw .tooManyPixels(width: width, height: height, limit: pixelLimit)
        }
    }

    private func decodeJPEG(_ bytes: [UInt8], claimed: (Int, Int), atLeast wanted: (width: Int, height: Int)?) throws(PictureError) -> Picture {
        let header = try JPEGHeader(bytes)
        try Self.same((header.width, header.height), claimed, .jpeg)
        var denominator = 1
        if let wanted {
            for candidate in [8, 4, 2] {
                let w = (header.width + candidate - 1) / candidate, h = (header.height + candidate - 1) / candidate
                if w >= wanted.width && h >= wanted.height { denominator = candidate; break }
            }
        }
        let width = (header.width + denominator - 1) / denominator
        let height = (header.height + denominator - 1) / denominator
        guard let handle = tjInitDecompress() else { throw .undecodable(format: "JPEG", reason: "the decoder could not start") }
        defer { tjDestroy(handle) }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(handle, source.baseAddress, UInt(source.count), target.baseAddress, Int32(width), 0, Int32(height),
                              Int32(TJPF_RGBA.rawValue), TJFLAG_ACCURATEDCT)
            }
        }
        if status != 0 {
            let reason = String(cString: tjGetErrorStr2(handle))
            // A warning (a stray byte before a marker) still decodes the whole picture; a missing
            // end of image means the file was cut short, and the bottom of the picture is grey.
            guard Self.endsWithEndOfImage(bytes) else { throw .undecodable(format: "JPEG", reason: "the file is truncated") }
            if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) { throw .undecodable(format: "JPEG", reason: reason) }
        }
        return Picture(width: width, height: height, rgba: pixels)
    }

    /// Whether the bytes end as a whole image does: a JPEG with its end-of-image marker, a PNG
    /// with its IEND chunk. A download cut short (with a header that reads) fails this, cheaply,
    /// without decoding a pixel.
    public static func isWhole(_ bytes: [UInt8]) -> Bool {
        switch PictureFormat(sniffing: bytes) {
        case .jpeg: return endsWithEndOfImage(bytes)
        case .png: return bytes.count >= 12 && bytes.suffix(12).elementsEqual([0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        case nil: return false
        }
    }

    /// Whether the JPEG ends with its end-of-image marker (FF D9), trailing zero bytes allowed.
    static func endsWithEndOfImage(_ bytes: [UInt8]) -> Bool {
        var end = bytes.count
        while end > 0 && bytes[end - 1] == 0 { end -= 1 }
        return end >= 2 && bytes[end - 2] == 0xFF && bytes[end - 1] == 0xD9
    }

    private func decodePNG(_ bytes: [UInt8], claimed: (Int, Int)) throws(PictureError) -> Picture {
        try PNGReader.read(bytes) { image in
            let width = Int(image.width), height = Int(image.height)
            do throws(PictureError) { try Self.same((width, height), claimed, .png) } catch { return .failure(error) }
            image.format = reel_png_format_rgba
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let finished = pixels.withUnsafeMutableBytes { target in
                png_image_finish_read(&image, nil, target.baseAddress, 0, nil)
            }
            guard finished != 0, image.warning_or_error & reel_png_image_error == 0 else {
                return .failure(.undecodable(format: "PNG", reason: PNGReader.message(of: image)))
            }
            return .success(Picture(width: width, height: height, rgba: pixels))
        }
    }
}

/// A JPEG's size, read by libjpeg-turbo from the header alone.
struct JPEGHeader {
    let width: Int
    let height: Int

    init(_ bytes: [UInt8]) throws(PictureError) {
        guard let handle = tjInitDecompress() else { throw .undecodable(format: "JPEG", reason: "the decoder could not start") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { source in
            tjDecompressHeader3(handle, source.baseAddress, UInt(source.count), &width, &height, &subsampling, &colourspace)
        }
        guard status == 0 else {
            let reason = PictureDecoder.endsWithEndOfImage(bytes) ? String(cString: tjGetErrorStr2(handle)) : "the file is truncated"
            throw .undecodable(format: "JPEG", reason: reason)
        }
        self.width = Int(width)
        self.height = Int(height)
    }
}

/// libpng's simplified reader, begun on bytes in memory. libpng keeps a pointer to the bytes
/// from the beginning of the read to its end, so both happen inside one borrow of them.
enum PNGReader {
    static func read<T>(_ bytes: [UInt8], _ body: (inout png_image) -> Result<T, PictureError>) throws(PictureError) -> T {
        let result: Result<T, PictureError> = bytes.withUnsafeBytes { source in
            var image = png_image()
            image.version = reel_png_image_version
            defer { png_image_free(&image) }
            guard png_image_begin_read_from_memory(&image, source.baseAddress, source.count) != 0 else {
                return .failure(.undecodable(format: "PNG", reason: message(of: image)))
            }
            return body(&image)
        }
        return try result.get()
    }

    static func message(of image: png_image) -> String {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unreadable" : text
    }
}
