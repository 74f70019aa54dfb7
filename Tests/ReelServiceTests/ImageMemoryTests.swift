import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ReelService

/// The images kept in memory for the image route: within their capacity, the oldest let go
/// first, none larger than a quarter of it.
@Suite struct ImageMemoryTests {
    static func entry(_ size: Int) -> ImageMemory.Entry {
        .init(body: ByteBuffer(bytes: [UInt8](repeating: 7, count: size)), etag: "\"\(size)\"", contentType: "image/jpeg")
    }

    @Test func theOldestGoFirstAndTheCapacityHolds() {
        let memory = ImageMemory(capacity: 1_000)
        for index in 0..<10 { memory.keep(Self.entry(200), as: "poster/w342/\(index).jpg") }
        #expect(memory.keptBytes <= 1_000)
        #expect(memory.entry("poster/w342/0.jpg") == nil, "the oldest went")
        #expect(memory.entry("poster/w342/9.jpg")?.etag == "\"200\"", "the newest stays")
        memory.keep(Self.entry(251), as: "backdrop/w1280/big.jpg")
        #expect(memory.entry("backdrop/w1280/big.jpg") == nil, "over a quarter of the capacity: not kept")
    }

    @Test func anImageKeptOnceIsAnsweredAgainWithItsTag() async throws {
        let harness = ServiceHarness()
        try await harness.test { (client: any TestClientProtocol) async throws in
            let path = "/images/poster/w185/reel-sample-movie-603-poster.jpg"
            let first = try await client.execute(uri: path, method: .get)
            let second = try await client.execute(uri: path, method: .get)
            #expect(first.status == .ok && second.status == .ok)
            #expect(first.headers[.eTag] == second.headers[.eTag] && first.body == second.body)
            #expect(second.headers[.cacheControl] == "public, max-age=31536000, immutable" && second.headers[.contentType] == "image/jpeg")
            let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: second.headers[.eTag] ?? ""])
            #expect(again.status == .notModified)
        }
    }
}
