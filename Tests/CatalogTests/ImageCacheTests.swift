import Foundation
import Testing
@testable import Catalog
import ReelTestSupport

/// The image cache on a real LMDB file in a temporary directory: the size cap, least-recently
/// used eviction, the six-month limit, clearing, and figures.
@Suite struct ImageCacheTests {
    static let start: Int64 = 1_800_000_000_000_000
    static let minute: Int64 = 60_000_000

    static func bytes(_ n: Int, _ fill: UInt8) -> [UInt8] { [UInt8](repeating: fill, count: n) }

    @Test func storedImagesComeBackWithWhenTheyWereFetched() throws {
        let cache = try ImageCache.open(at: temporaryDirectory())
        try cache.store("w342/a.jpg", bytes: Self.bytes(1000, 1), now: Self.start)
        let found = try #require(try cache.lookup("w342/a.jpg", now: Self.start + Self.minute))
        #expect(found.bytes == Self.bytes(1000, 1))
        #expect(found.storedAt == Self.start)
        #expect(try cache.lookup("w500/a.jpg", now: Self.start) == nil)
    }

    @Test func theLeastRecentlyUsedGoFirstWhenTheCapIsPassed() throws {
        let cache = try ImageCache.open(at: temporaryDirectory(), capBytes: 3000)
        try cache.store("w342/a.jpg", bytes: Self.bytes(1000, 1), now: Self.start)
        try cache.store("w342/b.jpg", bytes: Self.bytes(1000, 2), now: Self.start + Self.minute)
        try cache.store("w342/c.jpg", bytes: Self.bytes(1000, 3), now: Self.start + 2 * Self.minute)
        // a is used again: b is now the least recently used.
        _ = try cache.lookup("w342/a.jpg", now: Self.start + 3 * Self.minute)
        try cache.store("w342/d.jpg", bytes: Self.bytes(1000, 4), now: Self.start + 4 * Self.minute)
        #expect(try cache.contains("w342/a.jpg"))
        #expect(!(try cache.contains("w342/b.jpg")))
        #expect(try cache.contains("w342/c.jpg"))
        #expect(try cache.contains("w342/d.jpg"))
        let stats = try cache.statistics(now: Self.start + 5 * Self.minute)
        #expect(stats.images == 3)
        #expect(stats.bytes == 3000)
        #expect(stats.bytes <= stats.capBytes)
    }

    @Test func manyStoresNeverLeaveMoreThanTheCap() throws {
        let cache = try ImageCache.open(at: temporaryDirectory(), capBytes: 50_000)
        for i in 0..<200 {
            try cache.store("w342/\(i).jpg", bytes: Self.bytes(700 + i * 13 % 4000, UInt8(i % 250)), now: Self.start + Int64(i) * Self.minute)
            #expect(try cache.statistics(now: Self.start).bytes <= 50_000)
        }
        // The newest is always kept; the oldest went long ago.
        #expect(try cache.contains("w342/199.jpg"))
        #expect(!(try cache.contains("w342/0.jpg")))
    }

    @Test func replacingAnImageCountsItsBytesOnce() throws {
        let cache = try ImageCache.open(at: temporaryDirectory())
        try cache.store("w342/a.jpg", bytes: Self.bytes(1000, 1), now: Self.start)
        try cache.store("w342/a.jpg", bytes: Self.bytes(400, 2), now: Self.start + Self.minute)
        let stats = try cache.statistics(now: Self.start)
        #expect(stats.images == 1)
        #expect(stats.bytes == 400)
    }

    @Test func anImageLargerThanTheCapIsNotKept() throws {
        let cache = try ImageCache.open(at: temporaryDirectory(), capBytes: 1000)
        try cache.store("w342/a.jpg", bytes: Self.bytes(600, 1), now: Self.start)
        try cache.store("original/big.jpg", bytes: Self.bytes(1001, 2), now: Self.start)
        #expect(!(try cache.contains("original/big.jpg")))
        #expect(try cache.contains("w342/a.jpg"))
    }

    @Test func nothingIsServedOrKeptLongerThanSixMonths() throws {
        let cache = try ImageCache.open(at: temporaryDirectory())
        try cache.store("w342/old.jpg", bytes: Self.bytes(100, 1), now: Self.start)
        let later = Self.start + ImageCache.maximumAge
        #expect(try cache.lookup("w342/old.jpg", now: later - Self.minute) != nil)
        #expect(try cache.lookup("w342/old.jpg", now: later) == nil)
        #expect(try cache.statistics(now: later).expired == 1)
        // The next store removes it.
        try cache.store("w342/new.jpg", bytes: Self.bytes(100, 2), now: later)
        #expect(!(try cache.contains("w342/old.jpg")))
        #expect(try cache.statistics(now: later).images == 1)
    }

    @Test func twoHandlesShareOneCacheAndItOutlivesThem() throws {
        let directory = temporaryDirectory()
        let first = try ImageCache.open(at: directory)
        let second = try ImageCache.open(at: directory)
        try first.store("w92/a.jpg", bytes: Self.bytes(10, 9), now: Self.start)
        #expect(try second.lookup("w92/a.jpg", now: Self.start)?.bytes == Self.bytes(10, 9))
        let reopened = try ImageCache.open(at: directory)
        #expect(try reopened.contains("w92/a.jpg"))
    }

    @Test func clearingRemovesEveryImageAndSaysHowMany() throws {
        let directory = temporaryDirectory()
        let cache = try ImageCache.open(at: directory)
        for i in 0..<5 { try cache.store("w92/\(i).jpg", bytes: Self.bytes(10, 1), now: Self.start) }
        #expect(try ImageCache.clear(at: directory) == 5)
        #expect(!FileManager.default.fileExists(atPath: directory + "/data.mdb"))
        #expect(try ImageCache.clear(at: directory) == 0)
    }

    @Test func theCapComesFromTheEnvironmentInMegabytes() {
        #expect(ImageCache.capBytes(environment: [:]) == 200 << 20)
        #expect(ImageCache.capBytes(environment: ["REEL_IMAGE_CACHE_MB": "5"]) == 5 << 20)
        #expect(ImageCache.capBytes(environment: ["REEL_IMAGE_CACHE_MB": "0"]) == 200 << 20)
        #expect(ImageCache.capBytes(environment: ["REEL_IMAGE_CACHE_MB": "lots"]) == 200 << 20)
    }

    @Test func theSmallestSizeThatFillsTheBoxIsPicked() {
        let posters = ImageConfiguration.tmdbDefault.posterSizes
        // 30 × 45 cells of 10 × 20 px: a 300 px wide poster fills it (450 high < 900).
        #expect(ImageSizeChoice.filling(width: 300, height: 900).pick(from: posters, kind: .poster) == "w342")
        // A box that binds by height: 600 high → 400 wide.
        #expect(ImageSizeChoice.filling(width: 1000, height: 600).pick(from: posters, kind: .poster) == "w500")
        #expect(ImageSizeChoice.filling(width: 50, height: 75).pick(from: posters, kind: .poster) == "w92")
        #expect(ImageSizeChoice.filling(width: 5000, height: 9000).pick(from: posters, kind: .poster) == "original")
        let profiles = ImageConfiguration.tmdbDefault.profileSizes
        #expect(ImageSizeChoice.filling(width: 300, height: 600).pick(from: profiles, kind: .profile) == "h632")
        #expect(ImageSizeChoice.named("w342").pick(from: posters, kind: .poster) == "w342")
        #expect(ImageSizeChoice.named("w343").pick(from: posters, kind: .poster) == nil)
        #expect(ImageSizeChoice.named("original").pick(from: posters, kind: .poster) == "original")
    }
}
