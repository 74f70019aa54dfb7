import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Damaged LMDB files under the real binary: `ledger/data.mdb` and `keys/data.mdb` cut short,
/// zeroed or overwritten with random bytes in the middle. Every command ends with one line on
/// stderr and exit 65, or (where LMDB cannot see damage inside a page it does not read) works;
/// never a signal, an assertion's abort or a backtrace.
@Suite(.serialized) struct DamagedFileTests {
    typealias Ledger = LedgerCommandTests.Ledger

    /// Five accounts of 200 favorites and a name each: about 1,000 events, a ledger of some
    /// 140 pages and a key store of a few.
    static var base: String { get async { await made.value } }
    private static let made = Task {
        let ledger = Ledger()
        for user in ["a", "b", "c", "d", "e"] {
            _ = try? await ledger.reel(["fav", "add", "movie"] + (1_000..<1_200).map(String.init), user: user)
            _ = try? await ledger.reel(["settings", "name", "User \(user)"], user: user)
        }
        return ledger.dir
    }

    enum Fault: String, CaseIterable, Sendable {
        case half, twoPages = "two pages", lastPageCut = "last page cut", zeroed64KiB = "64 KiB zeroed", random = "random bytes"

        var cutsShort: Bool { self == .half || self == .twoPages || self == .lastPageCut }

        /// Damages the file at `path` (a fixed seed: the same bytes every run).
        func apply(to path: String, seed: UInt64 = 17) throws {
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            defer { try? handle.close() }
            let size = Int(try handle.seekToEnd())
            let middle = size / 2 / 4_096 * 4_096
            switch self {
            case .half: try handle.truncate(atOffset: UInt64(size / 2))
            case .twoPages: try handle.truncate(atOffset: 8_192)
            case .lastPageCut: try handle.truncate(atOffset: UInt64(size - 2_048))
            case .zeroed64KiB:
                try handle.seek(toOffset: UInt64(middle))
                try handle.write(contentsOf: Data(count: min(65_536, size - middle)))
            case .random:
                var generator = SplitMix64(seed: seed)
                try handle.seek(toOffset: UInt64(middle))
                try handle.write(contentsOf: Data((0..<min(65_536, size - middle)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            }
        }
    }

    static let commands: [[String]] = [
        ["accounts"], ["saved", "--user", "a"], ["fav", "add", "movie", "550", "--user", "a"], ["audit", "verify"],
        ["projections", "rebuild", "--check"], ["history", "--user", "b"],
    ]

    struct Case: Sendable, CustomStringConvertible {
        let file: String
        let fault: Fault
        var description: String { "\(file)/data.mdb, \(fault.rawValue)" }
    }

    static let cases = ["ledger", "keys"].flatMap { file in Fault.allCases.map { Case(file: file, fault: $0) } }

    @Test(arguments: cases)
    func everyCommandEndsWithOneLineOrWorksNeverASignal(_ damage: Case) async throws {
        for arguments in Self.commands {
            let ledger = Ledger()
            try? FileManager.default.removeItem(atPath: ledger.dir)
            try FileManager.default.copyItem(atPath: await Self.base, toPath: ledger.dir)
            try damage.fault.apply(to: ledger.dir + "/" + damage.file + "/data.mdb")
            let out = try await ledger.reel(arguments)
            let what = "\(damage) \(arguments.joined(separator: " ")): exit \(out.status), \(out.stderr)"
            #expect(!out.stderr.contains("Backtrac") && !out.stderr.contains("Fatal error") && !out.stderr.contains("Program crashed"), "\(what)")
            let lines = out.stderr.split(separator: "\n").filter { !$0.hasPrefix("reel: note: ") }
            if damage.fault.cutsShort {
                // Refused before the file is mapped: the meta page says how long it must be.
                #expect(out.status == 65, "\(what)")
                #expect(lines.count == 1 && lines[0].contains(damage.file + "/data.mdb"), "\(what)")
                #expect(lines.first?.contains("cut short") == true, "\(what)")
            } else {
                // LMDB has no page checksums: damage in pages a command never reads goes unseen.
                #expect(out.status == 65 || out.status == 0, "\(what)")
                if out.status == 65 {
                    #expect(lines.count == 1 && lines[0].hasPrefix("reel: "), "\(what)")
                } else {
                    #expect(lines.isEmpty, "\(what)")
                }
            }
        }
    }

    /// Random bytes land on different pages each time: across many seeds, `audit verify` (whose
    /// lanes read in parallel) still ends with one line and 65 or works. Two lanes faulting at once
    /// printed two lines; a broken page `mdb_cursor_open` met and did not report came back as
    /// `MDB_BAD_TXN` and exit 1.
    @Test func verifyOnRandomDamageIsOneLineWhateverTheBytes() async throws {
        for seed in UInt64(1)...24 {
            let ledger = Ledger()
            try? FileManager.default.removeItem(atPath: ledger.dir)
            try FileManager.default.copyItem(atPath: await Self.base, toPath: ledger.dir)
            try Fault.random.apply(to: ledger.dir + "/ledger/data.mdb", seed: seed)
            let out = try await ledger.reel(["audit", "verify"])
            let lines = out.stderr.split(separator: "\n")
            #expect(out.status == 65 || (out.status == 0 && lines.isEmpty), "seed \(seed): exit \(out.status), \(out.stderr)")
            #expect(lines.count <= 1, "seed \(seed): \(out.stderr)")
        }
    }

    /// A file cut short while a process has it open: the read faults (SIGBUS) inside the map, and
    /// `DamageGuard` turns it into one line and exit 65. A fault anywhere else is a bug and stays a
    /// signal.
    @Test func aFaultInsideAMapIsOneLineAndAFaultElsewhereStaysASignal() async throws {
        let quiet = ["SWIFT_BACKTRACE": "enable=no"]
        let inside = try await Harness.run(Harness.binaries + "/reel-bench", ["damage-probe", "--directory", temporaryDirectory() + "/env"], environment: quiet)
        #expect(inside.status == 65, "\(inside.stdout) \(inside.stderr)")
        #expect(inside.stderr.hasPrefix("reel-bench: ") && inside.stderr.contains("/env/data.mdb is damaged"), "\(inside.stderr)")
        #expect(inside.stderr.split(separator: "\n").count == 1, "\(inside.stderr)")
        let wild = try await Harness.run(Harness.binaries + "/reel-bench", ["damage-probe", "--directory", temporaryDirectory() + "/env", "--wild"], environment: quiet)
        #expect(wild.status != 0 && wild.status != 65, "\(wild.stdout) \(wild.stderr)")
        #expect(!wild.stderr.contains("is damaged"), "\(wild.stderr)")
    }

    /// A check that fails stops the command before it writes: `fav add` on a key store cut short
    /// leaves the ledger as it was.
    @Test func aCommandThatFoundDamageWritesNothing() async throws {
        let ledger = Ledger()
        try? FileManager.default.removeItem(atPath: ledger.dir)
        try FileManager.default.copyItem(atPath: await Self.base, toPath: ledger.dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: ledger.dir + "/ledger/data.mdb"))
        try Fault.lastPageCut.apply(to: ledger.dir + "/keys/data.mdb")
        try await ledger.fails(["fav", "add", "movie", "550"], user: "a", status: 65, "keys/data.mdb")
        #expect(try Data(contentsOf: URL(fileURLWithPath: ledger.dir + "/ledger/data.mdb")) == before)
    }
}
