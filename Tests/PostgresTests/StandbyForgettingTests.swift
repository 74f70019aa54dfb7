@_spi(Stores) import EventLog
import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// A deletion reaches the standby of a pair: after `reel account delete` and the standby's replay
/// (and its restartpoint, `CHECKPOINT`), a raw scan of the standby's data directory and WAL finds no
/// byte of the account's key, its name, its photo or its handle, and the keyring no longer opens
/// the key as the standby held it.
@Suite struct StandbyForgettingTests {
    @Test func aDeletionLeavesNothingOfTheAccountInTheStandbysFiles() async throws {
        let pair = try await FailoverPair.shared.value
        let (fixed, database) = try await LedgerHome.make(on: pair)
        let handle = DeletionFixture.handle, name = DeletionFixture.name
        let photo = temporaryDirectory("photo") + "/me.png"
        try Data(Images.png).write(to: URL(fileURLWithPath: photo))
        for (command, user) in [
            (["fav", "add", "movie", "550", "603"], handle), (["settings", "name", name], handle), (["settings", "photo", photo], handle),
            (["fav", "add", "movie", "13"], "ann"),
        ] {
            let out = try await fixed.reel(command, user: user)
            #expect(out.status == 0, "\(command): \(out.stderr)")
        }
        let accounts = try Harness.json(try await fixed.reel(["accounts", "--json"]).stdout)["accounts"] as? [[String: Any]] ?? []
        let stream = try #require(accounts.first { $0["user"] as? String == handle }?["stream"] as? String)
        let primary = try #require(try await offThread { try pair.primary() })
        let standby = try #require(pair.nodes.first { $0 != primary })
        let hex = try await pair.psql(primary, "SELECT encode(key, 'hex') FROM reel_stream_keys WHERE stream = '\(stream)'", database: database)
        let wrapped = stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(hex.dropFirst($0).prefix(2), radix: 16) }
        let id = try #require(UUID(uuidString: try await pair.psql(primary, "SELECT store FROM reel_keyring", database: database)))
        let keyring = KeyringFile(directory: Harness.keyring, store: id)
        let key = try #require(try keyring.opening(wrapped, stream: stream))
        // The standby holds the account now (wrapped, sealed) as the primary does.
        try await waitForReplay(pair, primary, standby)
        #expect(try await pair.psql(standby, "SELECT count(*) FROM reel_stream_keys WHERE stream = '\(stream)'", database: database) == "1")
        try await pair.psql(standby, "CHECKPOINT")
        let before = try await files(holding: wrapped, under: standby.dataDirectory)
        #expect(!before.isEmpty, "the scan finds the wrapped key in the standby's files: \(before)")
        #expect(try await files(holding: key, under: standby.dataDirectory).isEmpty, "the bare key never enters the standby's files")

        let deleted = try await fixed.reel(["account", "delete", "--yes", "--json"], user: handle)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try Harness.json(deleted.stdout)["keyPurged"] as? Bool == true, "\(deleted.stdout)")
        // The documented steps on the standby: it replays the deletion and the keyring's rotation,
        // and a restartpoint lets its old WAL go.
        try await waitForReplay(pair, primary, standby)
        try await pair.psql(standby, "CHECKPOINT")
        #expect(try await pair.psql(standby, "SELECT count(*) FROM reel_stream_keys WHERE stream = '\(stream)'", database: database) == "0")
        for (what, bytes) in [("the key", key), ("the name", Array(name.utf8)), ("the photo", Images.png), ("the handle", Array(handle.utf8))] {
            let left = try await files(holding: bytes, under: standby.dataDirectory)
            #expect(left.isEmpty, "\(what) is still in the standby's \(left)")
        }
        #expect(try keyring.opening(wrapped, stream: stream) == nil, "the keyring still opens the key the standby held")
        // The other account reads as before, from the pair.
        let ann = try Harness.json(try await fixed.reel(["saved", "--json"], user: "ann").stdout)
        #expect((ann["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [13])
    }

    func waitForReplay(_ pair: FailoverPair, _ primary: FailoverPair.Node, _ standby: FailoverPair.Node) async throws {
        let lsn = try await pair.psql(primary, "SELECT pg_current_wal_lsn()")
        try await waitFor("the standby to replay to \(lsn)") {
            (try? await pair.psql(standby, "SELECT pg_last_wal_replay_lsn() >= '\(lsn)'::pg_lsn")) == "t"
        }
    }
}
