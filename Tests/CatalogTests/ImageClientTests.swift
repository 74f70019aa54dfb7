import Foundation
import Pictures
import Synchronization
import Testing
@testable import Catalog
import ReelTestSupport

/// The image client over a transport the test scripts (the configuration from the sample
/// catalog, the cache a real LMDB file): what is checked before an image is kept, statuses,
/// offline fallbacks.
@Suite struct ImageClientTests {
    /// Answers every fetch with `respond(url)`, counting them.
    final class ScriptedTransport: ImageTransport {
        let respond: @Sendable (String) -> TransportResponse
        let fetched = Mutex<[String]>([])
        init(_ respond: @escaping @Sendable (String) -> TransportResponse) { self.respond = respond }
        func fetch(_ url: String) async throws -> TransportResponse {
            fetched.withLock { $0.append(url) }
            return respond(url)
        }
        func shutdown() async {}
    }

    static let poster = "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg"

    static func client(_ transport: ScriptedTransport, cache: ImageCache?, offline: Bool = false) -> ImageClient {
        var retry = RetryPolicy()
        retry.baseDelay = .milliseconds(1)
        retry.maximumDelay = .milliseconds(2)
        return ImageClient(catalog: .sample(), transport: transport, cache: cache, offline: offline, retry: retry)
    }

    static func png(_ colour: RGB) throws -> [UInt8] { try PictureEncoder.png(Picture(width: 40, height: 60, filledWith: colour)) }

    /// A PNG whose signature, header and IEND are whole but whose pixel data is damaged.
    static func damagedPNG() throws -> [UInt8] {
        var bytes = try png(RGB(10, 200, 30))
        let idat = bytes.firstRange(of: Array("IDAT".utf8))!.upperBound
        for i in idat + 2..<min(idat + 14, bytes.count - 16) { bytes[i] ^= 0x5A }
        return bytes
    }

    @Test func anImageDamagedBetweenAWholeStartAndEndIsRefusedAndNotCached() async throws {
        let damaged = try Self.damagedPNG()
        #expect(PictureDecoder.isWhole(damaged))
        let transport = ScriptedTransport { _ in TransportResponse(status: 200, body: damaged) }
        let cache = try ImageCache.open(at: temporaryDirectory())
        let client = Self.client(transport, cache: cache)
        await #expect(throws: CatalogError.self) { try await client.image(Self.poster, kind: .poster, size: .named("w342")) }
        #expect(try cache.statistics(now: 0).images == 0)
    }

    @Test func theImageHostRefusingIsUnavailableAndNotFoundIsNotFound() async throws {
        let statuses = Mutex<[Int]>([403, 404])
        let transport = ScriptedTransport { _ in TransportResponse(status: statuses.withLock { $0.removeFirst() }) }
        let client = Self.client(transport, cache: nil)
        await #expect(throws: CatalogError.unavailable(endpoint: "image w342/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg", reason: "HTTP 403")) {
            try await client.image(Self.poster, kind: .poster, size: .named("w342"))
        }
        await #expect(throws: CatalogError.notFound(endpoint: "image w342/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg")) {
            try await client.image(Self.poster, kind: .poster, size: .named("w342"))
        }
        #expect(transport.fetched.withLock { $0.count } == 2, "neither is retried")
    }

    @Test func fiveHundredsAreRetriedThenServed() async throws {
        let good = try Self.png(RGB(200, 0, 0))
        let statuses = Mutex<[Int]>([503, 502, 200])
        let transport = ScriptedTransport { _ in
            let status = statuses.withLock { $0.removeFirst() }
            return TransportResponse(status: status, body: status == 200 ? good : [])
        }
        let image = try await Self.client(transport, cache: nil).image(Self.poster, kind: .poster, size: .named("w342"))
        #expect(image.width == 40 && image.height == 60 && image.format == .png)
        #expect(transport.fetched.withLock { $0 } == Array(repeating: "https://image.tmdb.org/t/p/w342" + Self.poster, count: 3))
    }

    @Test func offlineAnotherCachedSizeOfTheImageStandsIn() async throws {
        let directory = temporaryDirectory()
        let big = try Self.png(RGB(0, 0, 200))
        let online = Self.client(ScriptedTransport { _ in TransportResponse(status: 200, body: big) }, cache: try ImageCache.open(at: directory))
        _ = try await online.image(Self.poster, kind: .poster, size: .named("w500"))
        let offline = Self.client(ScriptedTransport { _ in TransportResponse(status: 500) }, cache: try ImageCache.open(at: directory), offline: true)
        let stand = try await offline.image(Self.poster, kind: .poster, size: .named("w342"))
        #expect(stand.size == "w500" && stand.fromCache)
        await #expect(throws: CatalogError.notCached(endpoint: "image w342/other.jpg")) {
            try await offline.image("/other.jpg", kind: .poster, size: .named("w342"))
        }
    }

    /// `cachedImage` answers from the cache or not at all: nothing is fetched for an image the
    /// cache lacks (the preview's poster drawn ahead while the cursor passes titles by).
    @Test func aCachedImageIsAnsweredFromTheCacheAndNothingIsFetchedForOneItLacks() async throws {
        let directory = temporaryDirectory()
        let bytes = try Self.png(RGB(200, 0, 0))
        let transport = ScriptedTransport { _ in TransportResponse(status: 200, body: bytes) }
        let client = Self.client(transport, cache: try ImageCache.open(at: directory))
        #expect(try await client.cachedImage(Self.poster, kind: .poster, size: .named("w342")) == nil)
        #expect(transport.fetched.withLock { $0.isEmpty }, "nothing fetched")
        _ = try await client.image(Self.poster, kind: .poster, size: .named("w342"))
        let cached = try #require(try await client.cachedImage(Self.poster, kind: .poster, size: .named("w342")))
        #expect(cached.bytes == bytes && cached.fromCache && cached.size == "w342")
        #expect(try await client.cachedImage(Self.poster, kind: .poster, size: .named("w500")) == nil, "another size is not this one")
        #expect(transport.fetched.withLock { $0.count } == 1, "only the one image() fetched")
    }
}
