import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Paths a person gives: "" is a usage error everywhere (an empty backup target once wrote a
/// whole backup, keys included, into `/`); a leading `~` the shell left alone means $HOME.
@Suite struct PathArgumentTests {
    /// Runs `reel` in `directory` with `HOME` and `REEL_DATA_DIR` as given (nil: unset).
    static func reel(_ arguments: [String], in directory: String, home: String, dataDir: String?) async throws -> Harness.Output {
        var env = ProcessInfo.processInfo.environment.filter { !Home.inherited.contains($0.key) }
        env["NO_COLOR"] = "1"
        env["HOME"] = home
        env["XDG_CONFIG_HOME"] = home + "/.config"
        env["REEL_DATA_DIR"] = dataDir
        return try await Harness.complete([Harness.binaries + "/reel"] + arguments, environment: env, directory: directory)
    }

    static func expectUsage(_ out: Harness.Output, _ words: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(out.status == 64, "exit \(out.status): \(out.stderr)", sourceLocation: sourceLocation)
        #expect(out.stdout.isEmpty, "\(out.stdout)", sourceLocation: sourceLocation)
        #expect(out.stderr.hasPrefix("reel: ") && out.stderr.split(separator: "\n").count == 1, "\(out.stderr)", sourceLocation: sourceLocation)
        for word in words { #expect(out.stderr.contains(word), "'\(word)' not in \(out.stderr)", sourceLocation: sourceLocation) }
    }

    @Test func anEmptyBackupTargetIsAUsageErrorAndNothingIsWrittenToTheRoot() async throws {
        let home = temporaryDirectory("paths-home")
        let data = home + "/data"
        #expect(try await Self.reel(["fav", "add", "movie", "550"], in: home, home: home, dataDir: data).status == 0)
        let hadLedger = FileManager.default.fileExists(atPath: "/ledger") || FileManager.default.fileExists(atPath: "/keys")
        Self.expectUsage(try await Self.reel(["backup", ""], in: "/", home: home, dataDir: data), "empty path")
        if !hadLedger {
            #expect(!FileManager.default.fileExists(atPath: "/ledger") && !FileManager.default.fileExists(atPath: "/keys"), "a backup in /")
        }
        // `/` itself, a directory that is not empty and a file are refused, and left alone.
        Self.expectUsage(try await Self.reel(["backup", "/"], in: home, home: home, dataDir: data), "not an empty directory")
        let full = temporaryDirectory("paths-full")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: full + "/note"))
        Self.expectUsage(try await Self.reel(["backup", full], in: home, home: home, dataDir: data), "not an empty directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: full) == ["note"])
        Self.expectUsage(try await Self.reel(["backup", full + "/note"], in: home, home: home, dataDir: data), "not an empty directory")
        // An empty directory is fine.
        let empty = temporaryDirectory("paths-empty")
        #expect(try await Self.reel(["backup", empty], in: home, home: home, dataDir: data).status == 0)
        #expect(FileManager.default.fileExists(atPath: empty + "/ledger/data.mdb"))
    }

    @Test func anEmptyDataDirectoryIsAUsageErrorNotTheDefault() async throws {
        let home = temporaryDirectory("paths-home")
        Self.expectUsage(try await Self.reel(["fav", "add", "movie", "550", "--data-dir", ""], in: home, home: home, dataDir: nil), "--data-dir", "empty path")
        Self.expectUsage(try await Self.reel(["--data-dir=", "accounts"], in: home, home: home, dataDir: nil), "--data-dir")
        Self.expectUsage(try await Self.reel(["fav", "add", "movie", "550"], in: home, home: home, dataDir: ""), "REEL_DATA_DIR", "empty path")
        #expect(!FileManager.default.fileExists(atPath: home + "/.local/share/reel"), "the default directory was not used")
        // --data-dir wins over an empty REEL_DATA_DIR, which then does not matter.
        #expect(try await Self.reel(["fav", "add", "movie", "550", "--data-dir", home + "/d"], in: home, home: home, dataDir: "").status == 0)
    }

    @Test func aLeadingTildeMeansTheHomeDirectory() async throws {
        let home = temporaryDirectory("paths-home")
        let cwd = temporaryDirectory("paths-cwd")
        let added = try await Self.reel(["fav", "add", "movie", "550", "--data-dir=~/x"], in: cwd, home: home, dataDir: nil)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/x/ledger/data.mdb"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cwd).isEmpty, "no literal ~ directory")
        #expect(try await Self.reel(["accounts"], in: cwd, home: home, dataDir: "~/x").stdout.contains("default"))
        let backup = try await Self.reel(["backup", "~/copy"], in: cwd, home: home, dataDir: "~/x")
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/copy/ledger/data.mdb"))
        let export = try await Self.reel(["account", "export", "--out", "~/export.json"], in: cwd, home: home, dataDir: "~/x")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try await Self.reel(["account", "verify-export", "~/export.json"], in: cwd, home: home, dataDir: "~/x").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cwd).isEmpty, "no literal ~ directory")
        // Another user's home is not guessed at.
        Self.expectUsage(try await Self.reel(["accounts", "--data-dir", "~root/x"], in: cwd, home: home, dataDir: nil), "~/")
    }

    @Test(arguments: [
        ["account", "export", "--out", ""], ["account", "import", ""], ["account", "verify-export", ""], ["settings", "photo", ""],
        ["backup", ""], ["accounts", "--data-dir", ""],
    ])
    func everyEmptyPathIsAUsageError(_ arguments: [String]) async throws {
        let home = temporaryDirectory("paths-home")
        let data = home + "/data"
        #expect(try await Self.reel(["fav", "add", "movie", "550"], in: home, home: home, dataDir: data).status == 0)
        Self.expectUsage(try await Self.reel(arguments, in: home, home: home, dataDir: data), "empty path")
    }
}
