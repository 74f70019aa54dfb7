import FakeTMDb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Reel
import Testing

@testable import ReelService

/// TMDb's images through Reel (`/images/{kind}/{size}/{file}`), here the sample catalog's art (no
/// credentials): no token, the bytes with their type, a year's caching and an ETag, and each
/// refusal in words.
@Suite struct ImageRouteTests {
    static func detail(_ response: TestResponse) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))) as? [String: Any]
        return object?["detail"] as? String ?? ""
    }

    @Test func aPosterIsServedWithoutATokenCachedForAYearWithAnETag() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test { (client: any TestClientProtocol) async throws in
            let path = "/images/poster/w342/reel-sample-movie-603-poster.jpg"
            let poster = contract.record(.get, path, try await client.execute(uri: path, method: .get))
            #expect(poster.status == .ok && poster.headers[.contentType] == "image/jpeg")
            #expect(Array(poster.body.readableBytesView.prefix(3)) == [0xFF, 0xD8, 0xFF])
            #expect(poster.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let etag = try #require(poster.headers[.eTag])
            let again = contract.record(.get, path, try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag]))
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let backdrop = "/images/backdrop/w780/reel-sample-movie-603-backdrop.jpg"
            #expect(contract.record(.get, backdrop, try await client.execute(uri: backdrop, method: .get)).status == .ok)
        }
        try await AccountAnswerTests.check(contract)
    }

    @Test func aWrongKindSizeOrFileIsRefusedInWords() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test { (client: any TestClientProtocol) async throws in
            for (path, words) in [
                ("/images/thumbnail/w342/a.jpg", "poster, backdrop"), ("/images/poster/w9999/a.jpg", "w342"),
                ("/images/poster/w342/a.gif", "not an image file name"), ("/images/poster/w342/%2e%2e.jpg", "not an image file name"),
                ("/images/poster/w342/a%1B%5B31m.jpg", "not an image file name"),
            ] {
                let answer = contract.record(.get, path, try await client.execute(uri: path, method: .get))
                #expect(answer.status == .badRequest && Self.detail(answer).contains(words), "\(path): \(Self.detail(answer))")
                #expect(!Self.detail(answer).contains("\u{1B}"), "\(path)")
            }
            let unknown = "/images/poster/w342/no-such-poster.jpg"
            #expect(contract.record(.get, unknown, try await client.execute(uri: unknown, method: .get)).status == .notFound)
        }
        try await AccountAnswerTests.check(contract)
    }

    /// Images fetched from TMDb (here the fake server's host) for one address are limited: past
    /// the burst, 429 with Retry-After, while an image the cache holds is still served.
    @Test func fetchesForOneAddressAreLimitedAndCachedImagesAreNot() async throws {
        let tmdb = try await FakeTMDbServer.start()
        let harness = ServiceHarness(environment: ["TMDB_API_TOKEN": "any-token", "REEL_TMDB_BASE_URL": tmdb.baseURL])
        let router = Router(context: ServiceRequestContext.self)
        harness.server.addOuterMiddleware(to: router, metrics: ServiceMetrics())
        var images = ImageEndpoints(application: harness.application)
        images.fetches = RateLimiter(rate: 0.001, burst: 2, counting: "images fetched from TMDb for this address")
        images.add(to: router)
        try await harness.test(router) { (client: any TestClientProtocol) async throws in
            let file = "reel-sample-movie-603-poster.jpg"
            #expect(try await client.execute(uri: "/images/poster/w92/\(file)", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/images/poster/w154/\(file)", method: .get).status == .ok)
            let third = try await client.execute(uri: "/images/poster/w185/\(file)", method: .get)
            #expect(third.status == .tooManyRequests && third.headers[.retryAfter] != nil, "\(third.status)")
            #expect(Self.detail(third).contains("images fetched from TMDb"), "\(Self.detail(third))")
            #expect(try await client.execute(uri: "/images/poster/w92/\(file)", method: .get).status == .ok, "cached: no fetch")
        }
        await tmdb.stop()
    }
}
