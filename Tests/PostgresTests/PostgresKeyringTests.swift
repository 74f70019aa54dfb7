@_spi(Stores) import EventLog
import Failures
import Foundation
import PostgresStore
import ReelTestSupport
import Testing

/// The PostgreSQL store's key hierarchy on a real server: account keys are stored only wrapped
/// under the keyring's key-encryption key, which lives in a file outside the database; a store
/// migrated from bare keys has them wrapped at its first open; a keyring that is missing, damaged,
/// another store's or behind the store is refused in one line (65), with nothing read.
@Suite struct PostgresKeyringTests {
    static let started = Task { try await PostgresServer.started("PostgresKeyringTests") }

    static func database(_ server: PostgresServer, _ name: String = #function, version: Int = PostgresMigration.latest) async throws -> (PostgresLocation, String) {
        let database = "k_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        try await server.createDatabase(database)
        let location = try PostgresLocation(server.url(database: database))
        _ = try await PostgresMigrator.migrate(location, to: version)
        return (location, database)
    }

    static func event() throws -> ProposedEvent { try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":550}"#.utf8)) }

    static func hex(_ text: String) -> [UInt8] { stride(from: 0, to: text.count - 1, by: 2).compactMap { UInt8(text.dropFirst($0).prefix(2), radix: 16) } }

    @Test func keysAreStoredOnlyWrappedAndTheKeyNeverEntersTheServersFiles() async throws {
        let server = try await Self.started.value
        let (location, database) = try await Self.database(server)
        let directory = temporaryDirectory("keyring-data")
        let stream = try StreamID("account-keyring-one")
        try await offThread {
            let store = try PostgresEventStore.open(location, directory: directory)
            _ = try store.append([try Self.event()], to: stream, expected: .noStream)
        }
        let row = try await server.psql("SELECT encode(key, 'hex'), generation FROM reel_stream_keys WHERE stream = '\(stream.rawValue)'", database: database)
        let parts = row.split(separator: "|")
        #expect(parts.count == 2 && parts[1] == "1", "\(row)")
        let wrapped = Self.hex(String(parts[0]))
        #expect(wrapped.count == 60)
        let id = try #require(UUID(uuidString: try await server.psql("SELECT store FROM reel_keyring", database: database)))
        let keyring = KeyringFile(directory: directory + "/keyrings", store: id)
        let key = try #require(try keyring.opening(wrapped, stream: stream.rawValue))
        #expect(key.count == 32)
        #expect(try keyring.opening(wrapped, stream: "account-another") == nil, "a wrapped key opens for its own stream only")
        try await server.psql("CHECKPOINT")
        #expect(try await files(holding: key, under: server.dataDirectory).isEmpty, "the bare key is in the server's files")
        #expect(try await !files(holding: wrapped, under: server.dataDirectory).isEmpty, "the scan finds the wrapped key")
    }

    @Test func bareKeysOfAnOlderSchemaAreWrappedAtTheFirstOpen() async throws {
        let server = try await Self.started.value
        let (location, database) = try await Self.database(server, version: 3)
        let bare = [UInt8](repeating: 0x5a, count: 32)
        let hex = bare.map { String(format: "%02x", $0) }.joined()
        try await server.psql("INSERT INTO reel_stream_keys (stream, key, created_at) VALUES ('account-old', decode('\(hex)', 'hex'), 0)", database: database)
        _ = try await PostgresMigrator.migrate(location)
        let directory = temporaryDirectory("keyring-adopt")
        _ = try await offThread { try PostgresEventStore.open(location, directory: directory) }
        let row = try await server.psql("SELECT encode(key, 'hex'), generation FROM reel_stream_keys WHERE stream = 'account-old'", database: database)
        let parts = row.split(separator: "|")
        #expect(parts.count == 2 && parts[1] == "1" && Self.hex(String(parts[0])).count == 60, "\(row)")
        let id = try #require(UUID(uuidString: try await server.psql("SELECT store FROM reel_keyring", database: database)))
        #expect(try KeyringFile(directory: directory + "/keyrings", store: id).opening(Self.hex(String(parts[0])), stream: "account-old") == bare)
        // Opened again (another process, the same keyring), nothing changes.
        _ = try await offThread { try PostgresEventStore.open(location, directory: directory) }
        #expect(try await server.psql("SELECT count(*) FROM reel_keyring", database: database) == "1")
    }

    @Test func aKeyringThatIsMissingDamagedForeignOrBehindIsRefused() async throws {
        let server = try await Self.started.value
        let (location, database) = try await Self.database(server)
        let directory = temporaryDirectory("keyring-refusals")
        _ = try await offThread { try PostgresEventStore.open(location, directory: directory) }
        let id = try await server.psql("SELECT store FROM reel_keyring", database: database)
        let path = directory + "/keyrings/\(id).keyring"
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        func refusal(_ what: String) async throws -> Failure? {
            do {
                _ = try await offThread { try PostgresEventStore.open(location, directory: directory) }
                Issue.record("\(what): opened")
                return nil
            } catch let failure as Failure {
                #expect(failure.kind == .tampered, "\(what): \(failure)")
                #expect(!failure.summary.contains("\n"), "\(what): one line")
                return failure
            }
        }
        try FileManager.default.removeItem(atPath: path)
        #expect(try await refusal("missing")?.summary.contains("which is missing") == true)
        try Data("reel-keyring 1\nstore \(id)\ngeneration 1 AAAA\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try await refusal("damaged")?.summary.contains("is damaged: line 3") == true)
        let other = String(decoding: original, as: UTF8.self).replacingOccurrences(
            of: #"generation 1 \S+"#, with: "generation 1 " + Data(repeating: 7, count: 32).base64EncodedString(), options: .regularExpression)
        try Data(other.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try await refusal("another key")?.summary.contains("does not match the store") == true)
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect(try await refusal("CRLF")?.summary.contains("carriage returns") == true)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: directory + "/elsewhere.keyring")
        try original.write(to: URL(fileURLWithPath: directory + "/elsewhere.keyring"))
        #expect(try await refusal("a symbolic link")?.summary.contains("is a symbolic link") == true)
        try FileManager.default.removeItem(atPath: path)
        // A FIFO in its place is refused at once, not waited on: no writer ever comes while it is
        // opened (one that waited would wait for ever; `withoutAWriter` then ends the wait).
        #expect(mkfifo(path, 0o600) == 0)
        let fifoRefusal = try await withoutAWriter(at: path) { () -> Failure? in
            do {
                _ = try PostgresEventStore.open(location, directory: directory)
                return nil
            } catch let failure as Failure {
                return failure
            }
        }
        #expect(fifoRefusal?.kind == .tampered && fifoRefusal?.summary.contains("\n") == false, "a FIFO: \(String(describing: fifoRefusal))")
        #expect(fifoRefusal?.summary.contains("not a regular file") == true, "a FIFO: \(String(describing: fifoRefusal))")
        try FileManager.default.removeItem(atPath: path)
        try original.write(to: URL(fileURLWithPath: path))
        // A file where the keyring directory should be is a usage mistake.
        do {
            _ = try await offThread { try PostgresEventStore.open(location, directory: directory, keyring: path) }
            Issue.record("a file as the keyring directory was taken")
        } catch let failure as Failure {
            #expect(failure.kind == .usage && failure.summary.contains("is not a directory"), "\(failure)")
        }
        // A rotation that stopped before its commit left a next generation beside the current one:
        // the next open removes it, so no one mistakes it for one a later rotation commits.
        let orphan = String(decoding: original, as: UTF8.self) + "generation 2 " + Data(repeating: 9, count: 32).base64EncodedString() + "\n"
        try Data(orphan.utf8).write(to: URL(fileURLWithPath: path))
        _ = try await offThread { try PostgresEventStore.open(location, directory: directory) }
        #expect(try KeyringFile(directory: directory + "/keyrings", store: try #require(UUID(uuidString: id))).read()?.generations == [1])
        try await server.psql("UPDATE reel_keyring SET generation = 2", database: database)
        #expect(try await refusal("behind")?.summary.contains("but the store") == true)
    }
}
