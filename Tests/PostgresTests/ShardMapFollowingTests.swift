import Foundation
import Ledger
import PostgresStore
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

/// A long-lived application (`reel ui`, `reel serve`) follows the shard map the shards record
/// (issue 36): the map file it read grows by a shard, other processes record the growth and move
/// the accounts; the application then finds each account on its new home, a shard it opens only
/// now follows the map too, and a new account is placed by the grown map.
@Suite struct ShardMapFollowingTests {
    static let started = Task { try await PostgresServer.started("ShardMapFollowingTests") }

    @Test func aLongLivedApplicationFollowsTheMapTheShardsRecord() async throws {
        let maps = try await ShardMapFiles(try await Self.started.value, prefix: "following", databases: 3)
        let (two, three) = (try ShardMap.load(from: try maps.map(2)), try ShardMap.load(from: try maps.map(3)))
        let live = temporaryDirectory("following-map") + "/shards.json"
        try Data(contentsOf: URL(fileURLWithPath: try maps.map(2))).write(to: URL(fileURLWithPath: live), options: .atomic)
        let directory = temporaryDirectory("following-data")
        // One home for every application, as processes of one user on one host: the keyring
        // (REEL_KEYRING, else ~/.config/reel/keyrings) is found in it.
        let home = temporaryDirectory("following-home")
        func application() -> Application {
            Application(.init(dataDirectory: directory, store: live, offline: true, environment: ["HOME": home]) { _ in })
        }
        let handles = (0..<200).map { "user\($0)" }
        // One account the grown map homes on the new shard; one that stays on the other old shard
        // (which the long-lived application does not open before the growth); one new afterwards.
        let mover = try #require(handles.first { three.home(of: $0) == 2 })
        let stayer = try #require(handles.first { three.home(of: $0) == 1 - two.home(of: mover) && two.home(of: $0) == three.home(of: $0) })
        let newcomer = try AccountHandle(try #require(handles.first { three.home(of: $0) == 2 && $0 != mover }))
        let (moving, staying) = (try AccountHandle(mover), try AccountHandle(stayer))

        let setup = application()
        _ = try await setup.migrateShards()
        for handle in [moving, staying] { _ = try setup.change(.rename(try ProfileName("Name of \(handle)")), for: handle) }
        await setup.close()

        // Two long-lived applications, each having read the account that will move.
        let (app, reader) = (application(), application())
        for each in [app, reader] { #expect(try each.account(moving).state.settings.name?.value == "Name of \(mover)") }

        // Grown, recorded and settled by another process.
        try Data(contentsOf: URL(fileURLWithPath: try maps.map(3))).write(to: URL(fileURLWithPath: live), options: .atomic)
        let other = application()
        _ = try await other.migrateShards()
        let settled = try other.settleShards()
        #expect(settled.moves.map(\.handle) == [moving])
        await other.close()

        // The moved account, not found where it was: the map followed, it is read on its new home.
        #expect(try reader.account(moving).state.settings.name?.value == "Name of \(mover)")
        await reader.close()
        // A shard opened only now records the grown map: followed, not refused.
        #expect(try app.account(staying).state.settings.name?.value == "Name of \(stayer)")
        // The moved account is read and changed on its new home.
        #expect(try app.account(moving).state.settings.name?.value == "Name of \(mover)")
        _ = try app.change(.rename(try ProfileName("Moved")), for: moving)
        #expect(try app.account(moving).state.settings.name?.value == "Moved")
        // A new account is placed by the grown map: nothing misplaced on any shard.
        _ = try app.change(.rename(try ProfileName("New")), for: newcomer)
        let verified = try app.verifyShards()
        #expect(verified.shards.map(\.misplaced) == [[], [], []] && verified.shards.allSatisfy(\.isIntact), "\(verified.shards.map(\.misplaced))")
        #expect(try app.accounts().filter { $0.status == .open }.compactMap(\.handle).sorted { $0.value < $1.value } == [moving, newcomer, staying].sorted { $0.value < $1.value })
        await app.close()
    }
}
