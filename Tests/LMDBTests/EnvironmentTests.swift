import Foundation
import LMDB
import ReelTestSupport
import Testing

@Suite struct EnvironmentTests {
    @Test func writesAreReadBackAndKeysSortNumerically() throws {
        let env = try Environment.open(at: temporaryDirectory())
        let db: Database<UInt64, [UInt8]> = try env.database(named: "numbers")
        try env.write { txn in
            for n: UInt64 in [300, 2, 70_000, 1] { try txn.put(db, n, [UInt8(n & 0xff)]) }
        }
        let keys: [UInt64] = try env.read { txn in
            try txn.withCursor(db) { cursor in
                var out: [UInt64] = []
                var entry = try cursor.first()
                while let e = entry { out.append(try e.decodeKey()); entry = try cursor.next() }
                return out
            }
        }
        #expect(keys == [1, 2, 300, 70_000])
        #expect(try env.read { try $0.get(db, 300) } == [44])
        #expect(try env.read { try $0.get(db, 5) } == nil)
        let seeked: UInt64? = try env.read { txn in try txn.withCursor(db) { try $0.seek(atLeast: UInt64(3))?.decodeKey() } }
        #expect(seeked == 300)
    }

    @Test func oneEnvironmentPerPathPerProcess() throws {
        let dir = temporaryDirectory()
        let a = try Environment.open(at: dir)
        let b = try Environment.open(at: dir + "/.")
        #expect(a === b)
    }

    @Test func errorsKeepTheLMDBCodeAndFunction() throws {
        let env = try Environment.open(at: temporaryDirectory())
        let db: Database<String, String> = try env.database(named: "things")
        try env.write { try $0.put(db, "a", "1") }
        do {
            try env.write { try $0.put(db, "a", "2", flags: .noOverwrite) }
            Issue.record("expected keyExist")
        } catch LMDBError.Code.keyExist {
            // matched by code
        }
        do {
            let _: Database<String, String> = try env.database(named: "missing", create: false)
            Issue.record("expected notFound")
        } catch let error as LMDBError {
            #expect(error.code == .notFound)
            #expect(error.function.hasPrefix("mdb_dbi_open"))
            #expect(error.message.contains("MDB_NOTFOUND"))
        }
    }

    @Test func aThrowingWriteLeavesNothing() throws {
        let env = try Environment.open(at: temporaryDirectory())
        let db: Database<String, String> = try env.database(named: "things")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try env.write { txn in
                try txn.put(db, "a", "1")
                throw Stop()
            }
        }
        #expect(try env.read { try $0.get(db, "a") } == nil)
    }

    @Test func aTransactionCannotEscapeItsClosure() throws {
        let env = try Environment.open(at: temporaryDirectory())
        let db: Database<String, String> = try env.database(named: "things")
        let escaped = try env.read { $0 }
        #expect(throws: LMDBError.self) { try escaped.get(db, "a") }
        do {
            _ = try escaped.get(db, "a")
        } catch let error as LMDBError {
            #expect(error.code == .badTxn)
        }
    }

    @Test func aNestedWriteOnTheSameThreadIsRefusedNotDeadlocked() throws {
        let env = try Environment.open(at: temporaryDirectory())
        #expect(throws: LMDBError.self) {
            try env.write { _ in try env.write { _ in } }
        }
    }

    @Test func readsNestInsideReads() throws {
        let env = try Environment.open(at: temporaryDirectory())
        let db: Database<String, String> = try env.database(named: "things")
        try env.write { try $0.put(db, "a", "1") }
        let value = try env.read { _ in try env.read { try $0.get(db, "a") } }
        #expect(value == "1")
    }

    @Test func theMapGrowsFromATinyStartWithoutTheCallerNoticing() throws {
        let env = try Environment.open(at: temporaryDirectory(), configuration: .init(initialMapSize: 64 << 10))
        let db: Database<UInt64, [UInt8]> = try env.database(named: "blobs")
        let value = [UInt8](repeating: 7, count: 200)
        for batch in 0..<50 {
            try env.write { txn in
                for i in 0..<1_000 { try txn.put(db, UInt64(batch * 1_000 + i), value, flags: .append) }
            }
        }
        #expect(env.growthCount > 0)
        #expect(try env.info().mapSize > 64 << 10)
        #expect(try env.read { try $0.count(db) } == 50_000)
        #expect(try env.read { try $0.get(db, 49_999) } == value)
    }

    @Test func reservingRoomLetsALargeWriteRunOnce() throws {
        let env = try Environment.open(at: temporaryDirectory(), configuration: .init(initialMapSize: 64 << 10))
        let db: Database<UInt64, [UInt8]> = try env.database(named: "blobs")
        let value = [UInt8](repeating: 7, count: 200)
        try env.reserve(20 << 20)
        #expect(env.growthCount == 1)
        #expect(try env.info().mapSize >= env.info().usedBytes + (20 << 20))
        try env.reserve(1 << 20)  // room enough already: nothing happens
        #expect(env.growthCount == 1)
        var runs = 0
        try env.write { txn in
            runs += 1
            for i in 0..<50_000 { try txn.put(db, UInt64(i), value, flags: .append) }
        }
        #expect(runs == 1 && env.growthCount == 1)
        #expect(try env.read { try $0.count(db) } == 50_000)
        // Without the reservation the same write fills the map and runs again.
        let small = try Environment.open(at: temporaryDirectory(), configuration: .init(initialMapSize: 64 << 10))
        let other: Database<UInt64, [UInt8]> = try small.database(named: "blobs")
        var again = 0
        try small.write { txn in
            again += 1
            for i in 0..<50_000 { try txn.put(other, UInt64(i), value, flags: .append) }
        }
        #expect(again > 1 && small.growthCount > 1)
    }

    @Test func theMapStopsAtItsMaximumEvenWhenThatIsNotAWholePage() throws {
        let maximum = (1 << 20) + 100
        let env = try Environment.open(at: temporaryDirectory(), configuration: .init(initialMapSize: 64 << 10, maximumMapSize: maximum))
        let db: Database<UInt64, [UInt8]> = try env.database(named: "blobs")
        try env.reserve(50 << 20)  // best effort: up to the maximum, no error
        #expect(try env.info().mapSize == 1 << 20)
        try env.reserve(50 << 20)
        let value = [UInt8](repeating: 7, count: 200)
        #expect {
            try env.write { txn in
                for i in 0..<20_000 { try txn.put(db, UInt64(i), value, flags: .append) }
            }
        } throws: { error in
            (error as? LMDBError)?.code == .mapFull
        }
        #expect(try env.read { try $0.count(db) } == 0)
        try env.write { txn in try txn.put(db, 1, value) }  // what fits still goes in
        #expect(try env.read { try $0.count(db) } == 1)
    }

    @Test func asyncWritesFromManyTasksAllCommit() async throws {
        let env = try Environment.open(at: temporaryDirectory(), configuration: .init(initialMapSize: 64 << 10))
        let db: Database<UInt64, [UInt8]> = try env.database(named: "tasks")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<32 {
                group.addTask {
                    for i in 0..<50 {
                        try await env.write { txn in try txn.put(db, UInt64(task * 1_000 + i), [UInt8](repeating: 1, count: 300)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try env.read { try $0.count(db) } == 32 * 50)
    }

    @Test func compactCopyLeavesOutDeletedRecords() throws {
        let dir = temporaryDirectory()
        let env = try Environment.open(at: dir + "/live")
        let db: Database<UInt64, [UInt8]> = try env.database(named: "blobs")
        let secret = Array("SECRET-MARKER-".utf8) + [UInt8](repeating: 0x41, count: 100)
        try env.write { txn in for i: UInt64 in 0..<2_000 { try txn.put(db, i, secret) } }
        try env.write { txn in for i: UInt64 in 0..<1_999 { try txn.delete(db, i) } }
        try env.write { txn in try txn.put(db, 1_999, [1, 2, 3]) }
        try env.copy(to: dir + "/copy")
        let copied = try Data(contentsOf: URL(fileURLWithPath: dir + "/copy/data.mdb"))
        let original = try Data(contentsOf: URL(fileURLWithPath: dir + "/live/data.mdb"))
        #expect(copied.count < original.count / 4)
        #expect(copied.range(of: Data("SECRET-MARKER-".utf8)) == nil)
        let copy = try Environment.open(at: dir + "/copy")
        let copyDB: Database<UInt64, [UInt8]> = try copy.database(named: "blobs", create: false)
        #expect(try copy.read { try $0.get(copyDB, 1_999) } == [1, 2, 3])
        #expect(throws: LMDBError.self) { try env.copy(to: dir + "/copy") }
    }

    @Test func aFailedOpenReportsThePath() throws {
        let dir = temporaryDirectory()
        try #require(FileManager.default.createFile(atPath: dir + "/data.mdb", contents: Data("not an lmdb file at all".utf8)))
        do {
            _ = try Environment.open(at: dir)
            Issue.record("expected a failure")
        } catch let error as LMDBError {
            #expect(error.function == "mdb_env_open")
            #expect(error.message.contains(dir))
        }
    }
}
