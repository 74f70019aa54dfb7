import Foundation
import Ledger
import PostgresStore
import ReelTestSupport
import Synchronization
import Testing

@testable import Reel
@testable import Stores

/// A front end that follows an account's changes (`accountChanges`, `reel ui`) goes on following
/// it when `reel store move` takes it to another shard: the shard it left has nothing more of it.
@Suite struct ShardMoveChangesTests {
    static let started = Task { try await PostgresServer.started("ShardMoveChangesTests") }

    @Test func changesAreFollowedToTheShardTheAccountMovesTo() async throws {
        let maps = try await ShardMapFiles(try await Self.started.value, prefix: "follow", databases: 3)
        let (two, three) = (try maps.map(2), try maps.map(3))
        let directory = temporaryDirectory("follow-data")
        let grown = try ShardMap.load(from: three)
        let handle = try AccountHandle(try #require((0..<100).map { "user\($0)" }.first { grown.home(of: $0) == 2 }))
        // One home for every application, as processes of one user on one host: the keyring
        // (REEL_KEYRING, else ~/.config/reel/keyrings) is found in it.
        let home = temporaryDirectory("follow-home")
        func application(_ store: String) -> Application {
            Application(.init(dataDirectory: directory, store: store, offline: true, environment: ["HOME": home]) { _ in })
        }
        let before = application(two)
        _ = try await before.migrateShards()
        _ = try before.change(.rename(try ProfileName("Before")), for: handle)
        await before.close()

        let app = application(three)
        _ = try await app.migrateShards()
        let seen = Versions()
        let following = Task {
            for try await version in app.accountChanges(of: handle, interval: .milliseconds(50)) { seen.add(version) }
        }
        defer { following.cancel() }
        #expect(await eventually { seen.all.contains(0) }, "the first notice")
        _ = try await offThread { try app.moveAccount(handle) }
        // Versions 1 and 2 on the shard it left (opened, renamed; 3 its departure), then 3 its
        // arrival and 4 a change on its new shard.
        _ = try app.change(.rename(try ProfileName("After")), for: handle)
        #expect(await eventually { seen.all.contains(4) }, "\(seen.all)")
        await app.close()
    }

    final class Versions: Sendable {
        private let versions = Mutex<[UInt64]>([])
        func add(_ version: UInt64) { versions.withLock { $0.append(version) } }
        var all: [UInt64] { versions.withLock { $0 } }
    }
}
