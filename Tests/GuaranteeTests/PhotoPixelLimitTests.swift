import EndToEndSupport
import Foundation
import NIOHTTP1
import ReelTestSupport
import Testing

/// A photo whose header claims more pixels than the limit, in every format the photo takes,
/// through the real `reel` (issue 36: a JPEG claiming 65,535 × 65,535 was set, while a PNG over
/// the limit was refused): exit 64, one line naming the file, nothing written.
@Suite struct PhotoPixelLimitTests {
    typealias Ledger = LedgerCommandTests.Ledger

    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// SOI, a frame header (`frame`: SOF0 baseline, SOF2 progressive) of `width` × `height` with
    /// three components, EOI: 23 bytes that claim the size.
    static func jpeg(width: Int, height: Int, frame: UInt8) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, frame, 0x00, 0x11, 0x08] + be16(height) + be16(width) + [0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
            + [0xFF, 0xD9]
    }

    /// The signature, an IHDR of `width` × `height` (8-bit RGB) and IEND, checksums right.
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
            }
            return be32(UInt32(data.count)) + typed + be32(~crc)
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0]) + chunk("IEND", [])
    }

    /// Each over the limit: (file name, bytes, the size the refusal names).
    static let bombs: [(String, [UInt8], String)] = [
        ("baseline.jpg", jpeg(width: 65535, height: 65535, frame: 0xC0), "65535×65535"),
        ("progressive.jpg", jpeg(width: 65535, height: 65535, frame: 0xC2), "65535×65535"),
        ("just-over.jpg", jpeg(width: 8001, height: 5000, frame: 0xC0), "8001×5000"),
        ("wide.png", png(width: 10_000, height: 5_000), "10000×5000"),
        ("huge.png", png(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF), "2147483647×2147483647"),
    ]

    static func write(_ bytes: [UInt8], named name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aHeaderOverThePixelLimitIsRefusedInEveryFormatAndNothingIsWritten() async throws {
        let files = temporaryDirectory("photo-bombs")
        // A new data directory: not a file is made.
        let fresh = Ledger()
        for (name, bytes, size) in Self.bombs {
            let path = try Self.write(bytes, named: name, in: files)
            try await fresh.fails(
                ["settings", "photo", path], user: "ann", status: 64, "\(path): invalid photo: \(size) pixels is more than the limit of 40,000,000 pixels")
        }
        #expect(try AccountMoveTests.files(under: fresh.dir).filter { !$0.hasPrefix("config/") } == [], "nothing is written")

        // An account with a photo: its history and its photo stay as they were.
        let ledger = Ledger()
        let photo = try Self.write(Images.png, named: "me.png", in: files)
        #expect(try await ledger.reel(["settings", "photo", photo], user: "ann").status == 0)
        let events = try await ledger.eventCount()
        let settings = try await ledger.reel(["settings", "--json"], user: "ann").stdout
        for (name, _, size) in Self.bombs {
            try await ledger.fails(["settings", "photo", files + "/" + name], user: "ann", status: 64, "\(size) pixels is more than the limit")
        }
        await #expect(try ledger.eventCount() == events && events > 0, "the ledger is unchanged")
        #expect(try await ledger.reel(["settings", "--json"], user: "ann").stdout == settings)
    }

    /// The service's photo route takes the same path: 400, a usage problem naming the size.
    @Test func theServiceRefusesThemToo() async throws {
        let service = try await ServiceProcess.start(Home())
        let token = try await service.token(for: "ana")
        for (_, bytes, size) in Self.bombs {
            let answer = try await service.request(.PUT, "/v1/settings/photo", token: token, body: bytes, contentType: "image/jpeg")
            #expect(answer.status == 400 && answer.header("Content-Type") == "application/problem+json", "\(answer.status) \(answer.text)")
            #expect(answer.text.contains("\(size) pixels is more than the limit of 40,000,000 pixels"), "\(answer.text)")
        }
        #expect((try await service.request(.GET, "/v1/settings", token: token).json())["photo"] is NSNull)
    }
}
