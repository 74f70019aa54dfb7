import AsyncHTTPClient
@testable import Catalog
@testable import FakeTMDb
import Foundation
import JSONKit
import NIOCore
import NIOHTTP1
import Pictures
import Testing

/// `fake-tmdb` as TMDb's image host: the sample art below `/t/p/SIZE/FILE`, named by its own
/// `/configuration`, with latency, statistics and faults like the API's.
@Suite struct FakeImageHostTests {
    struct Response {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]
    }

    static func get(_ url: String, headers: [(String, String)] = []) async throws -> Response {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let body = try await response.body.collect(upTo: 16 << 20)
        return Response(status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
    }

    static let fightClubPoster = SampleCatalog.bundled.movie(550)?.poster_path ?? "?"

    static func root(_ server: FakeTMDbServer) -> String { "http://127.0.0.1:\(server.port)" }

    @Test func aPosterIsAJPEGWithoutCredentials() async throws {
        var options = FakeTMDbServer.Options()
        options.token = "only-this"
        let server = try await FakeTMDbServer.start(options: options)
        let url = Self.root(server) + "/t/p/w342" + Self.fightClubPoster
        let response = try await Self.get(url)
        #expect(response.status == 200)
        #expect(response.headers.first(name: "content-type") == "image/jpeg")
        #expect(response.headers.first(name: "content-length") == String(response.body.count))
        #expect(response.headers.first(name: "cache-control") == "public, max-age=31536000")
        let picture = try PictureDecoder().decode(response.body)
        #expect(picture.width == 342 && picture.height == 513)
        let served = try response.body == SampleImages.bundled.jpeg(path: Self.fightClubPoster, size: "w342")
        #expect(served, "the art SampleImages makes")
        // The same bytes again, and a 304 for the ETag.
        let tag = try #require(response.headers.first(name: "etag"))
        let revalidated = try await Self.get(url, headers: [("If-None-Match", tag)])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        let same = try await Self.get(url).body == response.body
        #expect(same)
        let stats = server.statistics
        #expect(stats.byPath["/t/p/w342" + Self.fightClubPoster] == 3)
        #expect(stats.byStatus[200] == 2 && stats.byStatus[304] == 1 && stats.notModified == 1 && stats.unauthorized == 0)
        await server.stop()
    }

    @Test func anUnknownFileOrSizeIs404() async throws {
        let server = try await FakeTMDbServer.start()
        let root = Self.root(server)
        for path in ["/t/p/w342/nope.jpg", "/t/p/w343" + Self.fightClubPoster, "/t/p/" + Self.fightClubPoster, "/t/p/w342/x" + Self.fightClubPoster, "/t/p/"] {
            let response = try await Self.get(root + path)
            #expect(response.status == 404, "\(path)")
        }
        #expect(server.statistics.byStatus[404] == 5)
        await server.stop()
    }

    @Test func theConfigurationNamesTheServerAsTheImageHost() async throws {
        let server = try await FakeTMDbServer.start()
        #expect(server.imageBaseURL == "http://127.0.0.1:\(server.port)/t/p/")
        let answer = try await Self.get(server.baseURL + "/configuration?api_key=k")
        let configuration = try JSONDecoder().decode(APIConfiguration.self, from: Data(answer.body))
        #expect(configuration.images.secureBaseURL == server.imageBaseURL)
        #expect(configuration.images.baseURL == server.imageBaseURL)
        // A client that follows the configuration draws the sample's art from the fake server.
        let person = try #require(SampleCatalog.bundled.person(287))
        for (path, kind, size, expected) in [
            (Self.fightClubPoster, ImageConfiguration.Kind.poster, "w500", (500, 750)),
            (SampleCatalog.bundled.movie(550)?.backdrop_path ?? "?", .backdrop, "w1280", (1280, 720)),
            (SampleCatalog.bundled.profilePath(person), .profile, "h632", (421, 632)),
        ] {
            let url = try #require(configuration.images.url(path, kind: kind, size: size))
            try #require(url.hasPrefix(server.imageBaseURL), "\(url)")
            let image = try await Self.get(url)
            #expect(image.status == 200, "\(url)")
            let picture = try PictureDecoder().decode(image.body)
            #expect(picture.width == expected.0 && picture.height == expected.1, "\(url)")
        }
        // The in-process sample catalog still names TMDb's host.
        #expect(SampleCatalog.configuration["images"]?["secure_base_url"]?.stringValue == "https://image.tmdb.org/t/p/")
        await server.stop()
    }

    @Test func latencyAppliesToImages() async throws {
        var options = FakeTMDbServer.Options()
        options.latency = .milliseconds(150)
        let server = try await FakeTMDbServer.start(options: options)
        let url = Self.root(server) + "/t/p/w92" + Self.fightClubPoster
        _ = try await Self.get(url)  // the connection and the art made once
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await Self.get(url).status == 200)
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(150), "\(elapsed)")
        await server.stop()
    }

    @Test func aHalfFileIsAnImageThatDoesNotDecode() async throws {
        let server = try await FakeTMDbServer.start()
        server.inject(try #require(Fault(parameters: ["kind": "half", "path": "/t/p/"])))
        let url = Self.root(server) + "/t/p/w342" + Self.fightClubPoster
        let cut = try await Self.get(url)
        #expect(cut.status == 200 && cut.headers.first(name: "content-length") == String(cut.body.count))
        let whole = try #require(try SampleImages.bundled.jpeg(path: Self.fightClubPoster, size: "w342"))
        let firstHalf = cut.body == Array(whole.prefix(whole.count / 2))
        #expect(firstHalf, "\(cut.body.count) of \(whole.count) bytes")
        #expect(throws: PictureError.undecodable(format: "JPEG", reason: "the file is truncated")) { try PictureDecoder().decode(cut.body) }
        // Used up: the next answer is whole.
        let wholeAgain = try await Self.get(url).body == whole
        #expect(wholeAgain)
        await server.stop()
    }

    @Test func faultsApplyToImagesByPathPrefix() async throws {
        let server = try await FakeTMDbServer.start()
        let root = Self.root(server)
        let poster = root + "/t/p/w185" + Self.fightClubPoster
        // A fault for the API's paths leaves images alone; one for images leaves the API alone.
        server.inject(Fault(.status(503, retryAfter: nil), pathPrefix: "/movie"))
        #expect(try await Self.get(poster).status == 200)
        server.inject(Fault(.status(503, retryAfter: "2"), count: 2, pathPrefix: "/t/p/w185"))
        #expect(try await Self.get(root + "/t/p/w92" + Self.fightClubPoster).status == 200)
        let refused = try await Self.get(poster)
        #expect(refused.status == 503 && refused.headers.first(name: "retry-after") == "2")
        #expect(try await Self.get(poster).status == 503)
        #expect(try await Self.get(poster).status == 200)
        #expect(try await Self.get(server.baseURL + "/movie/550?api_key=k").status == 503)
        // A fault that rewrites JSON texts is not used up by an image.
        server.inject(Fault(.hostileText))
        #expect(try await Self.get(poster).status == 200)
        let movie = try await Self.get(server.baseURL + "/movie/550?api_key=k")
        #expect(String(decoding: movie.body, as: UTF8.self).contains("reel-pwned"), "the API answer took the fault")
        // A dropped connection and a body cut short by the transport are errors to the client.
        server.inject(Fault(.connectionReset, pathPrefix: "/t/p/"))
        await #expect(throws: (any Error).self) { _ = try await Self.get(poster) }
        server.inject(Fault(.truncatedBody, pathPrefix: "/t/p/"))
        await #expect(throws: (any Error).self) { _ = try await Self.get(poster) }
        #expect(try await Self.get(poster).status == 200)
        await server.stop()
    }

    @Test func halfIsAFaultOfTheAPIToo() async throws {
        let server = try await FakeTMDbServer.start()
        server.inject(try #require(Fault(parameters: ["kind": "half", "path": "/movie/550"])))
        let cut = try await Self.get(server.baseURL + "/movie/550?api_key=k")
        #expect(cut.status == 200)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(MovieDetails.self, from: Data(cut.body)) }
        let whole = try await Self.get(server.baseURL + "/movie/550?api_key=k")
        let firstHalf = cut.body == Array(whole.body.prefix(whole.body.count / 2))
        #expect(firstHalf, "\(cut.body.count) of \(whole.body.count) bytes")
        await server.stop()
    }
}
