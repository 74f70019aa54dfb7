import Foundation
import Testing
@testable import Pictures

/// Decoding real files (PNGs written by zlib and hand-made chunks, JPEGs by libjpeg-turbo's
/// `cjpeg`, in Fixtures/), the pixel limit checked from the header, and damaged files.
@Suite struct PictureDecoderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static func fixture(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtures + "/" + name)))
    }

    /// The colour of the pixel at (x, y).
    static func pixel(_ picture: Picture, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * picture.width + x) * 4
        return Array(picture.rgba[offset..<offset + 4])
    }

    static func near(_ a: [UInt8], _ b: [UInt8], within tolerance: Int) -> Bool {
        zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    @Test func aJPEGDecodesToItsPixels() throws {
        for name in ["halves.jpg", "halves-progressive.jpg"] {
            let picture = try PictureDecoder().decode(try Self.fixture(name))
            #expect(picture.width == 90 && picture.height == 60, "\(name)")
            #expect(Self.near(Self.pixel(picture, 45, 10), [30, 180, 60, 255], within: 12), "\(name): \(Self.pixel(picture, 45, 10))")
            #expect(Self.near(Self.pixel(picture, 45, 50), [200, 40, 180, 255], within: 12), "\(name): \(Self.pixel(picture, 45, 50))")
        }
    }

    @Test func aJPEGIsDecodedAtTheSmallestScaleThatCoversWhatIsAskedFor() throws {
        let bytes = try Self.fixture("halves.jpg")
        // 90 × 60 at 1/2 is 45 × 30: enough for 40 × 30.
        let half = try PictureDecoder().decode(bytes, atLeast: (40, 30))
        #expect(half.width == 45 && half.height == 30)
        let whole = try PictureDecoder().decode(bytes, atLeast: (80, 50))
        #expect(whole.width == 90 && whole.height == 60)
        #expect(Self.near(Self.pixel(half, 20, 5), [30, 180, 60, 255], within: 12))
    }

    @Test func pngsOfEveryColourTypeDecodeToRGBA() throws {
        let halves = try PictureDecoder().decode(try Self.fixture("halves-rgba.png"))
        #expect(halves.width == 64 && halves.height == 48)
        #expect(Self.pixel(halves, 5, 5) == [200, 30, 20, 255])
        #expect(Self.pixel(halves, 60, 40) == [20, 40, 210, 128])
        let grey = try PictureDecoder().decode(try Self.fixture("gradient-grey.png"))
        #expect(Self.pixel(grey, 0, 0) == [0, 0, 0, 255])
        #expect(Self.pixel(grey, 39, 29) == [255, 255, 255, 255])
        let checker = try PictureDecoder().decode(try Self.fixture("checker-palette.png"))
        #expect(Self.pixel(checker, 0, 0) == [0, 160, 60, 255])
        #expect(Self.pixel(checker, 4, 0) == [250, 220, 0, 255])
    }

    @Test func theHeaderAloneTellsFormatAndSize() throws {
        let jpeg = try PictureDecoder().dimensions(of: try Self.fixture("halves.jpg"))
        #expect(jpeg.format == .jpeg && jpeg.width == 90 && jpeg.height == 60)
        let png = try PictureDecoder().dimensions(of: try Self.fixture("halves-rgba.png"))
        #expect(png.format == .png && png.width == 64 && png.height == 48)
    }

    /// A few bytes that claim billions of pixels are refused before anything is decompressed.
    @Test func thePixelLimitRefusesDecompressionBombsFromTheirHeader() throws {
        #expect(throws: PictureError.tooManyPixels(width: 60000, height: 60000, limit: PictureDecoder.defaultPixelLimit)) {
            try PictureDecoder().decode(try Self.fixture("bomb-60000.png"))
        }
        #expect(throws: PictureError.tooManyPixels(width: 65000, height: 65000, limit: PictureDecoder.defaultPixelLimit)) {
            try PictureDecoder().decode(try Self.fixture("bomb-65000.jpg"))
        }
        // The limit is the decoder's: a small one refuses a small picture.
        #expect(throws: PictureError.tooManyPixels(width: 90, height: 60, limit: 5000)) {
            try PictureDecoder(pixelLimit: 5000).decode(try Self.fixture("halves.jpg"))
        }
        #expect(try PictureDecoder(pixelLimit: 5400).decode(try Self.fixture("halves.jpg")).width == 90)
    }

    /// One limit on what every format's header claims, read by its structure before any codec
    /// (issue 36): a JPEG claiming 65,535 × 65,535, more than libjpeg-turbo reads at all, is
    /// refused for its pixels like the others, by `dimensions` and by `decode` alike.
    @Test func everyFormatsHeaderPassesThePixelLimit() throws {
        let frame: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x01, 0x11, 0x00]
        let jpeg: [UInt8] = [0xFF, 0xD8] + frame + [0xFF, 0xD9]
        let tooMany = PictureError.tooManyPixels(width: 65535, height: 65535, limit: PictureDecoder.defaultPixelLimit)
        #expect(throws: tooMany) { try PictureDecoder().dimensions(of: jpeg) }
        #expect(throws: tooMany) { try PictureDecoder().decode(jpeg) }
        let png = try Self.fixture("bomb-60000.png")
        #expect(throws: PictureError.tooManyPixels(width: 60000, height: 60000, limit: PictureDecoder.defaultPixelLimit)) {
            try PictureDecoder().dimensions(of: png)
        }
        // What the structure claims is what the codecs read, for real files.
        #expect(PictureFormat.jpeg.claimedSize(try Self.fixture("halves-progressive.jpg")) ?? (0, 0) == (90, 60))
        #expect(PictureFormat.png.claimedSize(try Self.fixture("halves-rgba.png")) ?? (0, 0) == (64, 48))
        #expect(throws: PictureError.tooManyPixels(width: 64, height: 48, limit: 3000)) {
            try PictureDecoder(pixelLimit: 3000).dimensions(of: try Self.fixture("halves-rgba.png"))
        }
    }

    @Test func aTruncatedFileIsACleanError() throws {
        #expect(throws: PictureError.undecodable(format: "JPEG", reason: "the file is truncated")) {
            try PictureDecoder().decode(try Self.fixture("truncated.jpg"))
        }
        #expect(throws: PictureError.self) { try PictureDecoder().decode(try Self.fixture("truncated.png")) }
        #expect(!PictureDecoder.isWhole(try Self.fixture("truncated.jpg")))
        #expect(!PictureDecoder.isWhole(try Self.fixture("truncated.png")))
        #expect(PictureDecoder.isWhole(try Self.fixture("halves.jpg")))
        #expect(PictureDecoder.isWhole(try Self.fixture("halves-rgba.png")))
    }

    @Test func whatIsNoImageIsSaidSo() throws {
        #expect(throws: PictureError.unknownFormat) { try PictureDecoder().decode(try Self.fixture("not-an-image.jpg")) }
        #expect(throws: PictureError.unknownFormat) { try PictureDecoder().decode([]) }
        #expect(throws: PictureError.self) { try PictureDecoder().decode([0xFF, 0xD8, 0xFF]) }
        #expect(throws: PictureError.self) { try PictureDecoder().decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
        // Random bytes after a JPEG's or PNG's signature: an error, never a crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let noise = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? PictureDecoder().decode([0xFF, 0xD8, 0xFF] + noise)
            _ = try? PictureDecoder().decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise)
        }
    }

    @Test func encodedPicturesDecodeBack() throws {
        var pixels = [UInt8]()
        for y in 0..<40 { for x in 0..<50 { pixels += [UInt8(x * 5), UInt8(y * 6), 128, 255] } }
        let picture = Picture(width: 50, height: 40, rgba: pixels)
        let png = try PictureDecoder().decode(try PictureEncoder.png(picture))
        #expect(png == picture)
        let jpeg = try PictureDecoder().decode(try PictureEncoder.jpeg(picture, quality: 95))
        #expect(jpeg.width == 50 && jpeg.height == 40)
        let mean = jpeg.meanColour, source = picture.meanColour
        #expect(abs(mean.red - source.red) < 3 && abs(mean.green - source.green) < 3 && abs(mean.blue - source.blue) < 3)
    }
}
