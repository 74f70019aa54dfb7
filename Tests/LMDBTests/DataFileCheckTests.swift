import Foundation
import LMDB
import ReelTestSupport
import Synchronization
import Testing

/// `DataFileCheck` reads the meta pages with `pread` before LMDB maps a file, so a file cut short
/// is refused with one error naming it instead of faulting (SIGBUS) on its first read.
@Suite struct DataFileCheckTests {
    /// An environment of a few hundred pages, closed again, and its file's size.
    private func written(_ dir: String) throws -> Int {
        do {
            let env = try Environment.open(at: dir)
            let db: Database<UInt64, [UInt8]> = try env.database(named: "pages")
            try env.write { txn in
                for key: UInt64 in 0..<500 { try txn.put(db, key, [UInt8](repeating: 7, count: 1_500)) }
            }
        }
        return try #require(FileManager.default.attributesOfItem(atPath: dir + "/data.mdb")[.size] as? Int)
    }

    private func cut(_ dir: String, to size: Int) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: dir + "/data.mdb"))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    @Test func aWholeFilePassesAndSaysWhatItsMetaPageSays() throws {
        let dir = temporaryDirectory()
        let size = try written(dir)
        let check = try #require(try DataFileCheck.check(directory: dir))
        #expect(check.meta.pageSize == 4_096)
        #expect(check.meta.requiredBytes <= size)
        #expect(check.meta.requiredBytes > 500 * 1_500)
        #expect(check.entries(ofDatabaseNamed: "pages") == 500)
        #expect(check.entries(ofDatabaseNamed: "no such database") == 0)
        #expect(try DataFileCheck.check(directory: temporaryDirectory()) == nil)
    }

    /// A commit falling between the check's reads (the file's size, then its meta pages) grows
    /// the file and writes a newer meta page: that is a file growing, not a file cut short. Seen
    /// in the wild as `reel accounts` exiting 65 while another process saved favorites.
    @Test func commitsDuringTheCheckAreNotMistakenForAFileCutShort() throws {
        let dir = temporaryDirectory()
        let env = try Environment.open(at: dir, configuration: .init(durability: .unsafeNoSync))
        let db: Database<UInt64, [UInt8]> = try env.database(named: "pages")
        let done = Mutex(false)
        let writer = Thread {
            // Each commit adds pages at the end of the file.
            for key: UInt64 in 0..<3_000 { try? env.write { txn in try txn.put(db, key, [UInt8](repeating: 7, count: 5_000)) } }
            done.withLock { $0 = true }
        }
        writer.start()
        var checks = 0
        var refused: [String] = []
        while !done.withLock({ $0 }) {
            checks += 1
            do { _ = try DataFileCheck.check(directory: dir) } catch { refused.append("\(error)") }
        }
        #expect(checks > 100, "too few checks ran during the commits to race them: \(checks)")
        #expect(refused.count == 0, "\(refused.count) of \(checks) checks refused a growing file: \(refused.prefix(3))")
    }

    @Test(arguments: ["half", "two pages", "last page cut"])
    func aFileCutShortIsRefusedBeforeItIsMapped(_ how: String) throws {
        let dir = temporaryDirectory()
        let size = try written(dir)
        let cutTo = ["half": size / 2, "two pages": 8_192, "last page cut": size - 2_048][how]!
        try cut(dir, to: cutTo)
        do {
            _ = try Environment.open(at: dir)
            Issue.record("a file cut to \(cutTo) of \(size) bytes was opened")
        } catch let error as LMDBError {
            #expect(error.code == .corrupted)
            #expect(error.code.meansDamage)
            #expect(error.message.contains(dir + "/data.mdb"), "\(error.message)")
            #expect(error.message.contains("holds \(cutTo) bytes"), "\(error.message)")
        }
    }

    @Test func anEmptyFileIsReportedAsSuch() throws {
        let dir = temporaryDirectory()
        _ = try written(dir)
        try cut(dir, to: 0)
        #expect(throws: LMDBError(code: .emptyDataFile, function: "mdb_env_open", message: dir + "/data.mdb: it is empty (0 bytes)")) {
            _ = try Environment.open(at: dir)
        }
    }

    @Test func aBrokenMetaPageIsRefused() throws {
        let dir = temporaryDirectory()
        _ = try written(dir)
        let handle = try #require(FileHandle(forUpdatingAtPath: dir + "/data.mdb"))
        try handle.seek(toOffset: 4_096 + 16)
        try handle.write(contentsOf: Data(repeating: 0, count: 8))
        try handle.close()
        do {
            _ = try Environment.open(at: dir)
            Issue.record("a file whose second meta page is zeroed was opened")
        } catch let error as LMDBError {
            #expect(error.code == .corrupted)
            #expect(error.message == dir + "/data.mdb: page 1 is not an LMDB meta page")
        }
    }

    @Test func damageLMDBFindsIsReportedWithTheFileNamed() throws {
        let dir = temporaryDirectory()
        _ = try written(dir)
        let env = try Environment.open(at: dir)
        // Zero the root page the newest meta names for the main database: LMDB then finds a page
        // of the wrong type (MDB_CORRUPTED) when it looks a database up.
        let check = try #require(try DataFileCheck.check(directory: dir))
        let handle = try #require(FileHandle(forUpdatingAtPath: dir + "/data.mdb"))
        try handle.seek(toOffset: UInt64(check.meta.mainRoot * check.meta.pageSize))
        try handle.write(contentsOf: Data(repeating: 0, count: check.meta.pageSize))
        try handle.close()
        #expect(check.entries(ofDatabaseNamed: "pages") == nil)
        do {
            let _: Database<UInt64, [UInt8]> = try env.database(named: "pages", create: false)
            Issue.record("a zeroed root page went unnoticed")
        } catch let error as LMDBError {
            #expect(error.code.meansDamage)
            #expect(error.message.hasPrefix(dir + "/data.mdb: "), "\(error.message)")
        }
    }
}
