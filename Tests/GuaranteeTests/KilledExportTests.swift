import EndToEndSupport
import Foundation
import Processes
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An export killed while it writes leaves no plaintext behind: written through an unnamed file
/// (`O_TMPFILE`), nothing has a name until the whole file is linked in. Where a name is needed
/// (the moment of replacing an existing file, or a file system without `O_TMPFILE`, which
/// `REEL_OUTPUT_TMPFILE=off` stands in for), the leftover has the documented name, is recorded
/// under the data directory, and is removed by the next export to the same place and by
/// `account delete` of that account.
@Suite(.serialized) struct KilledExportTests {
    typealias Ledger = LedgerCommandTests.Ledger

    static let handle = "big"

    /// An account with 8,001 events (an export of about 6 MB): a copy of one made once per test
    /// run (`cp -a` of its data directory, keyring and all), so each test has its own and the
    /// three pay for one (about eight seconds of processor time each).
    static func bigLedger() async throws -> Ledger {
        let template = try await bigTemplate.value
        let ledger = Ledger()
        let copied = try await ChildProcess.spawn(["cp", "-a", template.dir + "/.", ledger.dir]).exit()
        #expect(copied.status == 0, "cp -a of the big ledger")
        return ledger
    }

    private static let bigTemplate = Task {
        let ledger = Ledger()
        for start in stride(from: 1, to: 8_000, by: 2_000) {
            // (More titles than the sample catalog holds: saved unchecked, offline.)
            let out = try await ledger.reel(["fav", "add", "movie"] + (start..<(start + 2_000)).map(String.init), user: handle, environment: LedgerHome.unchecked)
            #expect(out.status == 0, "\(out.stderr)")
        }
        #expect(try await ledger.reel(["settings", "name", "Big Secret"], user: handle).status == 0)
        return ledger
    }

    static func entries(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    /// Starts `reel account export --out FILE`, waits until it has a file open in FILE's directory
    /// (it is writing), and kills it with SIGKILL. `nil` when the export finished first.
    static func killWhileWriting(_ ledger: Ledger, to file: String, named: Bool, previous: Data? = nil) async throws -> String? {
        var env = ProcessInfo.processInfo.environment
        env.merge(["REEL_DATA_DIR": ledger.dir, "REEL_USER": handle, "TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "XDG_CONFIG_HOME": ledger.dir + "/config"]) { _, new in new }
        if named { env["REEL_OUTPUT_TMPFILE"] = "off" }
        let process = RunningChild(try ChildProcess.spawn([Harness.binaries + "/reel", "account", "export", "--no-details", "--out", file], environment: env))
        let directory = (file as NSString).deletingLastPathComponent + "/"
        var seen: String?
        while process.isRunning, seen == nil {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd")) ?? []
            for fd in fds {
                // Unnamed (O_TMPFILE) output shows as "(deleted)" until it is linked in: once it has
                // a name the export is done, and a kill then (before the process exits) would test
                // nothing but a finished export.
                if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.pid)/fd/\(fd)"),
                    link.hasPrefix(directory), named || link.hasSuffix("(deleted)")
                {
                    seen = link
                    process.signal(SIGKILL)
                    break
                }
            }
        }
        guard let seen, case .signalled = process.wait() else { return nil }
        // The kill can land just after the file got its name (seeing the open file and killing
        // are two steps): then the export finished first, and what has the name must be whole.
        if let written = FileManager.default.contents(atPath: file), written != previous {
            let check = try await ledger.reel(["account", "verify-export", file])
            #expect(check.status == 0, "an export killed after it was named is not whole: \(check.stderr)")
            return nil
        }
        return seen
    }

    /// Kills exports midway until one is caught writing (a few tries at most); an export that
    /// finished first is undone (the file removed, or `previous` put back).
    static func caughtWriting(_ ledger: Ledger, to file: String, named: Bool, previous: Data? = nil) async throws -> String {
        for _ in 0..<10 {
            if let open = try await killWhileWriting(ledger, to: file, named: named, previous: previous) { return open }
            if let previous {
                try previous.write(to: URL(fileURLWithPath: file))
            } else if FileManager.default.fileExists(atPath: file) {
                try FileManager.default.removeItem(atPath: file)
            }
        }
        Issue.record("no export was caught while writing")
        return ""
    }

    @Test func anExportKilledWhileWritingLeavesNothingBehind() async throws {
        let ledger = try await Self.bigLedger()
        let dir = temporaryDirectory("killed")
        let file = dir + "/e1.json"
        let open = try await Self.caughtWriting(ledger, to: file, named: false)
        #expect(open.hasSuffix("(deleted)"), "the file being written has no name: \(open)")
        #expect(Self.entries(dir) == [], "a killed export left \(Self.entries(dir))")
        #expect(Self.entries(ledger.dir + "/pending-exports") == [])
        // Over an older export: that one stays whole, nothing beside it.
        let old = Data("an older export".utf8)
        try old.write(to: URL(fileURLWithPath: file))
        _ = try await Self.caughtWriting(ledger, to: file, named: false, previous: old)
        #expect(Self.entries(dir) == ["e1.json"])
        #expect(FileManager.default.contents(atPath: file) == old)
    }

    /// Without `O_TMPFILE` the file has its temporary name from the start: a killed export leaves
    /// it (plaintext), by the documented name and recorded, and the next export to the same place
    /// removes it.
    @Test func withoutOTmpfileTheLeftoverIsRemovedByTheNextExportToTheSamePlace() async throws {
        let ledger = try await Self.bigLedger()
        let dir = temporaryDirectory("killed")
        let file = dir + "/e2.json"
        _ = try await Self.caughtWriting(ledger, to: file, named: true)
        let left = Self.entries(dir)
        #expect(left.count == 1 && left[0].hasPrefix(".e2.json.reel-") && left[0].hasSuffix(".tmp"), "\(left)")
        #expect(Self.entries(ledger.dir + "/pending-exports").count == 1)
        let out = try await ledger.reel(["account", "export", "--out", file], user: Self.handle)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(Self.entries(dir) == ["e2.json"])
        #expect(Self.entries(ledger.dir + "/pending-exports") == [])
    }

    /// `account delete` removes what killed exports of the account left, wherever they were going.
    @Test func accountDeleteRemovesTheAccountsKilledExports() async throws {
        let ledger = try await Self.bigLedger()
        let dir = temporaryDirectory("killed")
        _ = try await Self.caughtWriting(ledger, to: dir + "/e3.json", named: true)
        let left = Self.entries(dir)
        #expect(left.count == 1, "\(left)")
        let plaintext = String(decoding: FileManager.default.contents(atPath: dir + "/" + (left.first ?? "")) ?? Data(), as: UTF8.self)
        #expect(plaintext.contains("\"handle\": \"big\"") || plaintext.contains("\"handle\":\"big\""), "the leftover holds the account's data")
        let out = try await ledger.reel(["account", "delete", "--yes"], user: Self.handle)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(Self.entries(dir) == [], "the deleted account's export outlived it: \(Self.entries(dir))")
        #expect(Self.entries(ledger.dir + "/pending-exports") == [])
    }

    /// Killed at each step of a write (`REEL_FAILPOINT=output:<step>`), new path or replacing one.
    @Test(arguments: ["written", "named"], [false, true])
    func aKillAtEachStepLeavesNothingOrAFileTheNextWriteRemoves(step: String, replacing: Bool) async throws {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: Self.handle).status == 0)
        let dir = temporaryDirectory("failpoint")
        let file = dir + "/e4.json"
        let old = Data("older".utf8)
        if replacing { try old.write(to: URL(fileURLWithPath: file)) }
        let crash = try await ledger.reel(["account", "export", "--out", file], user: Self.handle, environment: ["REEL_FAILPOINT": "output:" + step])
        let reached = crash.status != 0
        // Written to a new path, the file is never named before the link: `named` is not reached.
        #expect(reached == (step == "written" || replacing), "\(step) \(replacing): exit \(crash.status)")
        let left = Self.entries(dir).filter { $0 != "e4.json" }
        if step == "named" && replacing {
            #expect(left.count == 1 && left[0].hasPrefix(".e4.json.reel-"), "\(left)")
            #expect(Self.entries(ledger.dir + "/pending-exports").count == 1)
        } else {
            #expect(left == [], "\(step) \(replacing): \(left)")
        }
        if replacing { #expect(FileManager.default.contents(atPath: file) == old) }
        let again = try await ledger.reel(["account", "export", "--out", file], user: Self.handle)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.entries(dir) == ["e4.json"])
        #expect(Self.entries(ledger.dir + "/pending-exports") == [])
    }
}
