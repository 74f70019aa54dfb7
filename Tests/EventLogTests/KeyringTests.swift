import LMDBStore
import Crypto
import Failures
@_spi(Stores) import EventLog
import Foundation
import LMDB
import ReelTestSupport
import Testing

/// The LMDB key store keeps each account key wrapped under the data directory's keyring, kept
/// apart from it; a deletion rotates the keyring, so a backup (or any copy) made before it holds
/// the deleted account's key only under a key-encryption key that exists nowhere.
@Suite struct KeyringTests {
    /// A data directory with its keyring elsewhere (as `REEL_KEYRING` puts it).
    static func open(_ dir: String, keyring: String) throws -> EventLog {
        try EventLog.open(at: dir, configuration: .init(keyringDirectory: keyring))
    }

    /// The raw records of `keys/`: each stream's record, and the pair id (the keyring's name).
    static func records(_ dir: String) throws -> (keys: [String: [UInt8]], store: UUID) {
        let environment = try Environment.open(at: dir + "/keys", configuration: .init(readOnly: true))
        let keys = try environment.database(named: "stream-keys", String.self, [UInt8].self)
        let meta = try environment.database(named: "meta", String.self, [UInt8].self)
        return try environment.read { txn in
            var out: [String: [UInt8]] = [:]
            try txn.withCursor(keys) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    out[try e.decodeKey(as: String.self)] = Array(e.value)
                    entry = try cursor.next()
                }
            }
            let p = try #require(try txn.get(meta, "pair"))
            let store = UUID(uuid: (p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15]))
            return (out, store)
        }
    }

    /// Writes `stream`'s key bare and the keyring record away, as a key store from before the keyring.
    static func unwrap(_ dir: String, _ stream: String, to bare: [UInt8]) throws {
        let environment = try Environment.open(at: dir + "/keys")
        let db = try environment.database(named: "stream-keys", String.self, [UInt8].self)
        let meta = try environment.database(named: "meta", String.self, [UInt8].self)
        try environment.write { txn in
            try txn.put(db, stream, [1] + bare)
            _ = try txn.delete(meta, "kek")
        }
    }

    static func delete(_ stream: StreamID, _ log: EventLog) async throws {
        try await log.append([try ProposedEvent(type: "account-deleted", payload: Array("{}".utf8))], to: stream)
        try log.write { try $0.close(stream, atMicroseconds: 1) }
        try log.completeShredding()
    }

    @Test func keysAreStoredOnlyWrappedAndTheKeyringLivesWhereItIsTold() async throws {
        let dir = temporaryDirectory(), keyring = temporaryDirectory()
        let log = try Self.open(dir, keyring: keyring)
        try await log.append([try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":1}"#.utf8))], to: try StreamID("ann"))
        let (keys, store) = try Self.records(dir)
        let record = try #require(keys["ann"])
        #expect(record.count == 61 && record.first == 2, "a wrapped key: 0x02 and 60 bytes")
        let file = KeyringFile(directory: keyring, store: store)
        #expect(try file.read()?.generations == [1])
        #expect(try file.opening(Array(record[1...]), stream: "ann") != nil)
        #expect(!FileManager.default.fileExists(atPath: dir + "/keyrings"), "nothing of the keyring is in the data directory")
        // The same data directory without its keyring reads nothing: one clear refusal, naming
        // where it was made and where it was looked for.
        let elsewhere = temporaryDirectory()
        try FileManager.default.moveItem(atPath: file.path, toPath: dir + "-keyring-aside")
        #expect {
            _ = try Self.open(dir, keyring: elsewhere).read(stream: try StreamID("ann"))
        } throws: { error in
            "\(error)".contains("which is missing") && "\(error)".contains(keyring) && "\(error)".contains(elsewhere)
                && (error as? Failure)?.kind == .tampered
        }
        try FileManager.default.moveItem(atPath: dir + "-keyring-aside", toPath: file.path)
    }

    /// Processes that share a data directory but not a configuration (another HOME, another
    /// XDG_CONFIG_HOME, sudo, a service unit) find its keyring where it was made: `keys/` records
    /// that directory. A keyring an operator moved is found where the configuration now says, and
    /// the next rotation records its new place.
    @Test func theKeyringIsFoundWhereItWasMadeThenWhereTheConfigurationSays() async throws {
        let dir = temporaryDirectory(), keyring = temporaryDirectory(), other = temporaryDirectory()
        let ann = try StreamID("ann"), bob = try StreamID("bob")
        do {
            let log = try Self.open(dir, keyring: keyring)
            try await log.append([try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":1}"#.utf8))], to: ann)
            try await log.append([try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":2}"#.utf8))], to: bob)
        }
        let store = try Self.records(dir).store
        // Another configuration: the keyring is found where it was made, and nothing is made here.
        #expect(try Self.open(dir, keyring: other).read(stream: ann).first?.payload == Array(#"{"id":1}"#.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: other).isEmpty)
        // Moved by an operator: found where the configuration says.
        try FileManager.default.moveItem(atPath: KeyringFile(directory: keyring, store: store).path, toPath: KeyringFile(directory: other, store: store).path)
        let moved = try Self.open(dir, keyring: other)
        #expect(try moved.read(stream: bob).first?.payload == Array(#"{"id":2}"#.utf8))
        // A deletion rotates it in its new place, and records that place for every process.
        try await Self.delete(ann, moved)
        #expect(try KeyringFile(directory: other, store: store).read()?.generations == [2])
        #expect(!FileManager.default.fileExists(atPath: KeyringFile(directory: keyring, store: store).path))
        #expect(try Self.open(dir, keyring: temporaryDirectory()).read(stream: bob).first?.payload == Array(#"{"id":2}"#.utf8))
    }

    /// A backup made before a deletion, and a file copy of the data directory, hold the deleted
    /// account's key only wrapped under a generation the keyring no longer has: they are refused
    /// as copies from before a deletion, and no generation that exists opens the key. The data
    /// directory itself reads its live account, and verifies.
    @Test func aBackupMadeBeforeADeletionCannotOpenTheDeletedAccount() async throws {
        let dir = temporaryDirectory(), keyring = temporaryDirectory()
        let log = try Self.open(dir, keyring: keyring)
        let gone = try StreamID("account-gone"), kept = try StreamID("account-kept")
        try await log.append([try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":1}"#.utf8))], to: gone)
        try await log.append([try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":2}"#.utf8))], to: kept)
        let backup = dir + "-backup"
        try log.backup(to: backup)
        #expect(try Self.open(backup, keyring: keyring).read(stream: gone).first?.payload == Array(#"{"id":1}"#.utf8), "readable until the deletion")
        let (before, store) = try Self.records(backup)
        let goneKey = try #require(before[gone.rawValue])

        try await Self.delete(gone, log)

        let file = KeyringFile(directory: keyring, store: store)
        #expect(try file.read()?.generations == [2], "the generation the deleted key was wrapped under is gone")
        #expect(try file.opening(Array(goneKey[1...]), stream: gone.rawValue) == nil, "nothing that exists opens the backup's copy of the key")
        #expect {
            _ = try Self.open(backup, keyring: keyring).read(stream: gone)
        } throws: { error in
            "\(error)".contains("a copy from before a deletion") && (error as? Failure)?.kind == .tampered
        }
        #expect(try log.read(stream: gone).allSatisfy { $0.payload == nil })
        #expect(try log.read(stream: kept).first?.payload == Array(#"{"id":2}"#.utf8))
        let reopened = try Self.open(dir, keyring: keyring)
        #expect(try reopened.read(stream: kept).first?.payload == Array(#"{"id":2}"#.utf8))
        #expect(try reopened.verify().isIntact)
        #expect(try Self.records(dir).keys[gone.rawValue]?.first == 0, "a destroyed marker")
    }

    /// A key store written before the keyring (bare keys, `0x01 ‖ 32 bytes`) is wrapped at the
    /// first open that can write: a fresh file, the bare one removed, every stream still read.
    @Test func bareKeysFromBeforeTheKeyringAreWrappedAtTheFirstWritableOpen() async throws {
        let dir = temporaryDirectory(), keyring = temporaryDirectory()
        let stream = try StreamID("ann")
        do {
            let log = try Self.open(dir, keyring: keyring)
            try await log.append([try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":7}"#.utf8))], to: stream)
        }
        // Made as an older Reel left it: the key bare, no keyring record, no keyring.
        let (keys, store) = try Self.records(dir)
        let file = KeyringFile(directory: keyring, store: store)
        let wrapped = try #require(keys["ann"])
        let bare = try #require(try file.opening(Array(wrapped[1...]), stream: "ann"))
        try Self.unwrap(dir, "ann", to: bare)
        try file.remove()

        let log = try Self.open(dir, keyring: keyring)
        #expect(try log.read(stream: stream).first?.payload == Array(#"{"id":7}"#.utf8))
        let record = try #require(try Self.records(dir).keys["ann"])
        #expect(record.first == 2 && record.count == 61)
        #expect(try file.opening(Array(record[1...]), stream: "ann") == bare)
        #expect(try file.read()?.generations.count == 1)
    }
}
