import Ledger
import Testing

// Tiny but real image files, built byte by byte.

private func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
private func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

/// PNG files: signature, chunks (length, type, data, CRC-32 of type and data).
enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// CRC-32 (ISO 3309, reflected polynomial 0xEDB88320), as PNG chunks and zlib use it.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = (c >> 1) ^ (0xEDB8_8320 & (0 &- (c & 1))) }
        }
        return ~c
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typeAndData + be32(crc32(typeAndData))
    }

    /// 8-bit greyscale, no interlace.
    static func ihdr(width: UInt32, height: UInt32) -> [UInt8] {
        chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
    }

    /// The pixels as a zlib stream of one stored (uncompressed) deflate block: each row is filter
    /// type 0 and one byte a pixel.
    static func idat(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width { raw.append(UInt8((x * 31 + y * 17) & 0xFF)) }
        }
        precondition(raw.count <= 0xFFFF)
        let n = raw.count
        let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8 & 0xFF)]
            + raw + be32(adler32(raw))
        return chunk("IDAT", zlib)
    }

    static let iend = chunk("IEND", [])

    static func image(width: Int, height: Int) -> [UInt8] {
        signature + ihdr(width: UInt32(width), height: UInt32(height)) + idat(width: width, height: height) + iend
    }
}

/// JPEG files: markers and length-prefixed segments.
enum JPEG {
    static let soi: [UInt8] = [0xFF, 0xD8]
    static let eoi: [UInt8] = [0xFF, 0xD9]

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] { [0xFF, marker] + be16(payload.count + 2) + payload }

    /// JFIF 1.01, no density units, 1:1, no thumbnail.
    static let app0 = segment(0xE0, Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00])
    /// One quantisation table of 1s.
    static let dqt = segment(0xDB, [0x00] + Array(repeating: 1, count: 64))
    /// One DC Huffman table with a single 1-bit code. Its marker (C4) is in the frame range but is not a frame.
    static let dht = segment(0xC4, [0x00, 1] + Array(repeating: 0, count: 15) + [0x00])
    /// Start of frame: precision 8, height, width, one component (id 1, 1x1 sampling, table 0).
    static func sof(_ marker: UInt8 = 0xC0, width: Int, height: Int) -> [UInt8] {
        segment(marker, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
    }
    /// Start of scan: one component, tables 0/0, spectral 0-63, no approximation.
    static let sos = segment(0xDA, [1, 1, 0x00, 0, 63, 0])
    /// Entropy-coded data, with a stuffed FF 00 in it.
    static let scan: [UInt8] = [0x12, 0x34, 0xFF, 0x00, 0x56, 0x78]

    static func image(width: Int, height: Int, frame: UInt8 = 0xC0) -> [UInt8] {
        soi + app0 + dqt + sof(frame, width: width, height: height) + dht + sos + scan + eoi
    }
}

private func inspectionFailure(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    do {
        let format = try PhotoFormat.inspect(bytes)
        Issue.record("expected the photo to be refused, it was read as \(format)", sourceLocation: sourceLocation)
        return nil
    } catch {
        guard case .invalidPhoto(let why) = error else {
            Issue.record("expected invalidPhoto, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        return why
    }
}

@Suite struct ImageBuilderTests {
    /// The builders themselves: CRC-32 and Adler-32 against known values.
    @Test func checksumsMatchKnownValues() {
        #expect(PNG.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNG.iend == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        #expect(PNG.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func ihdrOfA1x1GreyscaleImageHasItsKnownCRC() {
        // The IHDR chunk of a 1x1 8-bit greyscale PNG, as every encoder writes it.
        #expect(PNG.ihdr(width: 1, height: 1) == [
            0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
            0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B, 0x55,
        ])
    }
}

@Suite struct PhotoFormatTests {
    @Test(arguments: [(1, 1), (3, 2), (16, 9), (200, 100)])
    func readsPNGSize(width: Int, height: Int) throws {
        let format = try PhotoFormat.inspect(PNG.image(width: width, height: height))
        #expect(format.kind == .png)
        #expect(format.width == width)
        #expect(format.height == height)
    }

    @Test func readsLargePNGDimensionsFromIHDR() throws {
        // The size comes from IHDR; the pixel data is not decoded.
        let bytes = PNG.signature + PNG.ihdr(width: 4000, height: 3000) + PNG.idat(width: 1, height: 1) + PNG.iend
        let format = try PhotoFormat.inspect(bytes)
        #expect(format.width == 4000 && format.height == 3000)
    }

    @Test func smallestStructurallyCompletePNG() throws {
        // Signature, IHDR and IEND: 45 bytes, the least the reader accepts.
        let bytes = PNG.signature + PNG.ihdr(width: 1, height: 1) + PNG.iend
        #expect(bytes.count == 45)
        #expect(try PhotoFormat.inspect(bytes) == PhotoFormat.inspect(PNG.image(width: 1, height: 1)))
    }

    @Test func pngWithAncillaryChunksAndSeveralIDATs() throws {
        let text = PNG.chunk("tEXt", Array("Comment".utf8) + [0] + Array("hello".utf8))
        let idat = PNG.idat(width: 2, height: 2)
        let bytes = PNG.signature + PNG.ihdr(width: 2, height: 2) + text + idat + idat + PNG.iend
        #expect(try PhotoFormat.inspect(bytes) == PhotoFormat.inspect(PNG.image(width: 2, height: 2)))
    }

    @Test(arguments: [(1, 1), (3, 2), (640, 480), (65535, 1), (1, 65535)])
    func readsJPEGSize(width: Int, height: Int) throws {
        let format = try PhotoFormat.inspect(JPEG.image(width: width, height: height))
        #expect(format.kind == .jpeg)
        #expect(format.width == width)
        #expect(format.height == height)
    }

    @Test(arguments: [UInt8(0xC0), 0xC1, 0xC2, 0xC3, 0xC5, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF])
    func readsEveryFrameKind(_ marker: UInt8) throws {
        let format = try PhotoFormat.inspect(JPEG.image(width: 12, height: 34, frame: marker))
        #expect(format.width == 12 && format.height == 34)
    }

    @Test func huffmanTablesBeforeTheFrameAreNotFrames() throws {
        // DHT (C4) and DAC (CC) sit in the C0-CF range; their bytes must not be read as a size.
        let dac = JPEG.segment(0xCC, [0x00, 0x10])
        let bytes = JPEG.soi + JPEG.app0 + JPEG.dht + dac + JPEG.dqt + JPEG.sof(width: 7, height: 5) + JPEG.sos + JPEG.scan + JPEG.eoi
        let format = try PhotoFormat.inspect(bytes)
        #expect(format.width == 7 && format.height == 5)
    }

    @Test func jpegWithFillBytesRestartMarkersAndExif() throws {
        let exif = JPEG.segment(0xE1, Array("Exif".utf8) + [0, 0] + Array(repeating: 0x2A, count: 40))
        let bytes = JPEG.soi + [0xFF, 0xFF] + exif + [0xFF, 0xFF, 0xFF] + JPEG.dqt + JPEG.sof(width: 320, height: 240)
            + JPEG.sos + JPEG.scan + [0xFF, 0xD0] + JPEG.scan + JPEG.eoi
        let format = try PhotoFormat.inspect(bytes)
        #expect(try PhotoFormat.inspect(JPEG.image(width: 320, height: 240)) == format)
    }

    @Test func jpegPaddedWithZerosAfterEOIIsAccepted() throws {
        let format = try PhotoFormat.inspect(JPEG.image(width: 10, height: 20) + [0, 0, 0, 0])
        #expect(format.width == 10 && format.height == 20)
    }

    @Test func exactlyFiveMegabytesIsAccepted() throws {
        // A PNG whose private chunk brings it to exactly the limit.
        let head = PNG.signature + PNG.ihdr(width: 2, height: 2) + PNG.idat(width: 2, height: 2)
        let filler = PhotoFormat.maximumBytes - head.count - PNG.iend.count - 12
        let png = head + PNG.chunk("prIv", Array(repeating: 0x41, count: filler)) + PNG.iend
        #expect(png.count == 5_000_000)
        #expect(try PhotoFormat.inspect(png).width == 2)

        let jpeg = JPEG.image(width: 4, height: 3)
        let padded = jpeg + Array(repeating: 0, count: 5_000_000 - jpeg.count)
        #expect(try PhotoFormat.inspect(padded).height == 3)
    }

    @Test func photoReferenceTakesItsTypeAndSizeFromTheFormat() throws {
        let png = try PhotoFormat.inspect(PNG.image(width: 3, height: 2))
        let reference = PhotoReference(sha256: String(repeating: "ab", count: 32), format: png, bytes: 99)
        #expect(reference.contentType == "image/png")
        #expect(reference.width == 3 && reference.height == 2 && reference.bytes == 99)
        #expect(reference == PhotoReference(sha256: String(repeating: "ab", count: 32), contentType: "image/png", bytes: 99, width: 3, height: 2))
        let jpeg = try PhotoFormat.inspect(JPEG.image(width: 5, height: 4))
        #expect(PhotoReference(sha256: "", format: jpeg, bytes: 1).contentType == "image/jpeg")
        #expect(PhotoFormat.Kind.jpeg.rawValue == "image/jpeg" && PhotoFormat.Kind.png.rawValue == "image/png")
    }

    /// Every format's header passes one pixel limit (issue 36: a JPEG claiming 65,535 × 65,535
    /// was set as a photo, while a PNG over the limit was refused).
    static let overTheLimit: [([UInt8], String)] = {
        let baseline: [UInt8] = JPEG.image(width: 65535, height: 65535)
        let progressive: [UInt8] = JPEG.image(width: 65535, height: 65535, frame: 0xC2)
        let bare: [UInt8] = JPEG.soi + JPEG.sof(width: 8001, height: 5000) + JPEG.eoi
        let wide: [UInt8] = PNG.signature + PNG.ihdr(width: 10_000, height: 5_000) + PNG.iend
        let huge: [UInt8] = PNG.signature + PNG.ihdr(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF) + PNG.iend
        return [(baseline, "65535×65535"), (progressive, "65535×65535"), (bare, "8001×5000"), (wide, "10000×5000"), (huge, "2147483647×2147483647")]
    }()

    @Test(arguments: overTheLimit)
    func aHeaderOverThePixelLimitIsRefusedWhateverItsFormat(_ bytes: [UInt8], _ size: String) {
        #expect(inspectionFailure(bytes) == "\(size) pixels is more than the limit of 40,000,000 pixels")
    }

    @Test func thePixelLimitItselfIsAccepted() throws {
        #expect(PhotoFormat.maximumPixels == 40_000_000)
        #expect(try PhotoFormat.inspect(JPEG.image(width: 8000, height: 5000)).width == 8000)
        #expect(try PhotoFormat.inspect(PNG.signature + PNG.ihdr(width: 5000, height: 8000) + PNG.iend).height == 8000)
    }
}

@Suite struct PhotoRejectionTests {
    @Test func empty() {
        #expect(inspectionFailure([]) == "the file is empty")
    }

    @Test func overFiveMegabytes() {
        let png = PNG.image(width: 2, height: 2)
        let tooBig = png + Array(repeating: 0, count: 5_000_001 - png.count)
        let why = inspectionFailure(tooBig)
        #expect(why?.contains("5,000,001") == true)
        #expect(why?.contains("5 MB") == true)
        let jpeg = JPEG.image(width: 2, height: 2)
        _ = inspectionFailure(jpeg + Array(repeating: 0, count: 6_000_000))
    }

    @Test func gif() {
        // GIF89a, 1x1, global colour table of 2, one image, trailer.
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00,
            0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        #expect(inspectionFailure(gif) == "the file is neither a JPEG nor a PNG image")
    }

    @Test(arguments: [
        "hello, this is a text file renamed to photo.png\n",
        "\u{FEFF}<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>",
        "PNG\r\n\u{1A}\n but not the signature",
        "BM this is not even a bitmap",
    ])
    func textFileRenamed(_ text: String) {
        #expect(inspectionFailure(utf8(text)) == "the file is neither a JPEG nor a PNG image")
    }

    @Test func bytesThatOnlyAlmostStartLikeAnImage() {
        _ = inspectionFailure(Array(PNG.signature.dropLast()) + [0x00] + Array(PNG.image(width: 1, height: 1).dropFirst(8)))
        _ = inspectionFailure([0xFF, 0xD8])
        _ = inspectionFailure([0xFF, 0xD8, 0xFE] + Array(JPEG.image(width: 1, height: 1).dropFirst(3)))
    }

    @Test func pngWithoutIEND() {
        let truncated = PNG.signature + PNG.ihdr(width: 4, height: 4) + PNG.idat(width: 4, height: 4)
        #expect(inspectionFailure(truncated)?.contains("no IEND") == true)
    }

    @Test func pngCutInsideAChunk() {
        let whole = PNG.image(width: 8, height: 8)
        let cutInIDAT = Array(whole.prefix(whole.count - PNG.iend.count - 10))
        #expect(inspectionFailure(cutInIDAT)?.contains("truncated") == true)
        let cutInIEND = Array(whole.dropLast(4))  // IEND without its CRC
        #expect(inspectionFailure(cutInIEND)?.contains("truncated") == true)
    }

    /// `PhotoFormat.inspect` documents a PNG as "signature, IHDR first, IEND last" and its chunk
    /// walk as "the last must be IEND": data after it (here a ZIP local-file header appended to a
    /// valid image, a polyglot file) is refused.
    @Test func pngWithDataAfterIEND() {
        let polyglot = PNG.image(width: 2, height: 2) + [0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0x41, count: 40)
        #expect(throws: DomainError.invalidPhoto("the PNG has data after its IEND chunk")) { try PhotoFormat.inspect(polyglot) }
    }

    @Test func pngChunkLengthPastTheEnd() {
        // An IDAT that claims more data than the file has, followed by what looks like IEND.
        var idat = PNG.idat(width: 2, height: 2)
        idat.replaceSubrange(0..<4, with: be32(0x7FFF_FFFF))
        #expect(inspectionFailure(PNG.signature + PNG.ihdr(width: 2, height: 2) + idat + PNG.iend) != nil)
    }

    @Test func pngWithoutIHDRFirst() {
        let idatFirst = PNG.signature + PNG.idat(width: 2, height: 2) + PNG.ihdr(width: 2, height: 2) + PNG.iend
        #expect(inspectionFailure(idatFirst)?.contains("IHDR") == true)
        // Too short to hold even IHDR and IEND.
        #expect(inspectionFailure(PNG.signature) == "the PNG is truncated (8 bytes)")
        let cutInIHDR = Array(PNG.image(width: 2, height: 2).prefix(20))
        #expect(inspectionFailure(cutInIHDR) == "the PNG is truncated (20 bytes)")
        let headerOnly = PNG.signature + PNG.ihdr(width: 2, height: 2) + Array(PNG.iend.prefix(11))
        #expect(inspectionFailure(headerOnly) == "the PNG is truncated (44 bytes)")
        // IHDR with a wrong length field.
        var badLength = PNG.image(width: 2, height: 2)
        badLength[11] = 12
        #expect(inspectionFailure(badLength)?.contains("IHDR") == true)
    }

    @Test(arguments: [(0, 5), (5, 0), (0, 0)])
    func pngWithoutPixels(width: Int, height: Int) {
        let bytes = PNG.signature + PNG.ihdr(width: UInt32(width), height: UInt32(height)) + PNG.idat(width: 1, height: 1) + PNG.iend
        #expect(inspectionFailure(bytes) == "the PNG has no pixels")
    }

    @Test func jpegWithoutEOI() {
        let whole = JPEG.image(width: 16, height: 16)
        #expect(inspectionFailure(Array(whole.dropLast(2)))?.contains("no end-of-image") == true)
        #expect(inspectionFailure(Array(whole.dropLast(1)))?.contains("no end-of-image") == true)
        #expect(inspectionFailure(Array(whole.dropLast(2)) + [0, 0, 0])?.contains("no end-of-image") == true)
    }

    @Test func jpegCutBeforeItsFrame() {
        let whole = JPEG.image(width: 16, height: 16)
        // Cut inside the quantisation table, before any frame header.
        let cut = Array(whole.prefix(JPEG.soi.count + JPEG.app0.count + 10))
        #expect(inspectionFailure(cut)?.contains("truncated") == true)
    }

    @Test func jpegWithoutFrameHeader() {
        #expect(inspectionFailure(JPEG.soi + JPEG.eoi)?.contains("no frame header") == true)
        #expect(inspectionFailure(JPEG.soi + JPEG.app0 + JPEG.eoi)?.contains("no frame header") == true)
        // Scan data before any frame header.
        #expect(inspectionFailure(JPEG.soi + JPEG.app0 + JPEG.sos + JPEG.scan + JPEG.eoi)?.contains("no frame header") == true)
        #expect(inspectionFailure([0xFF, 0xD8, 0xFF])?.contains("no frame header") == true)
    }

    @Test(arguments: [(0, 5), (5, 0)])
    func jpegWithoutPixels(width: Int, height: Int) {
        _ = inspectionFailure(JPEG.image(width: width, height: height))
    }

    @Test func jpegWithDamagedMarkers() {
        let bytes = JPEG.soi + JPEG.app0 + [0x00, 0x11] + JPEG.sof(width: 2, height: 2) + JPEG.sos + JPEG.scan + JPEG.eoi
        #expect(inspectionFailure(bytes)?.contains("damaged") == true)
        // A frame header too short to hold a size.
        let shortFrame = JPEG.soi + JPEG.segment(0xC0, [8, 0, 2, 0]) + JPEG.eoi
        #expect(inspectionFailure(shortFrame)?.contains("frame header is damaged") == true)
        // A segment length below 2.
        let badLength = JPEG.soi + [0xFF, 0xE0, 0x00, 0x01] + JPEG.sof(width: 2, height: 2) + JPEG.eoi
        #expect(inspectionFailure(badLength) != nil)
    }

    @Test func jpegFrameLengthPastTheEnd() {
        let bytes = JPEG.soi + [0xFF, 0xC0, 0x7F, 0xFF, 8, 0, 2, 0, 2] + JPEG.eoi
        #expect(inspectionFailure(bytes)?.contains("truncated") == true)
    }
}
