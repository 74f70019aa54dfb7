import EndToEndSupport
import Foundation
import Processes
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files going into and out of `reel`, through the built binary: inputs are read up to their
/// documented limit and no further whatever they are (`/dev/zero`, FIFOs, `/proc` files), with
/// memory staying small; `--out` writes only a new file or over a regular one, never into or over
/// a device, FIFO, socket, directory or symbolic link.
@Suite struct FileBoundaryTests {
    typealias Ledger = LedgerCommandTests.Ledger

    /// Runs `reel` under Python, which reports the peak memory (max RSS, KiB) of its only child.
    /// `stdin`: a path for standard input (default /dev/null).
    static func measured(_ ledger: Ledger, _ arguments: [String], stdin: String = "/dev/null", user: String? = nil) async throws -> (Harness.Output, rss: Int) {
        let script = """
            import os, resource, subprocess, sys
            with open(sys.argv[1], "rb") as stdin:
                code = subprocess.run(sys.argv[2:], stdin=stdin).returncode
            sys.stderr.write("rss %d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            sys.exit(code)
            """
        var env = ["TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "XDG_CONFIG_HOME": ledger.dir + "/config", "REEL_OFFLINE": "", "REEL_DATA_DIR": ledger.dir]
        if let user { env["REEL_USER"] = user }
        let out = try await Harness.run("python3", ["-c", script, stdin, Harness.binaries + "/reel"] + arguments, environment: env)
        var lines = out.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let rss = lines.last.flatMap { $0.hasPrefix("rss ") ? Int($0.dropFirst(4)) : nil } ?? -1
        let stderr = lines.dropLast().map { $0 + "\n" }.joined()
        return (Harness.Output(status: out.status, stdout: out.stdout, stderr: stderr, seconds: out.seconds), rss)
    }

    /// Exactly one line on stderr, `reel: ` first, holding each of `naming`.
    static func oneLine(_ out: Harness.Output, _ status: Int32, _ naming: [String], _ context: String) {
        #expect(out.status == status, "\(context): exit \(out.status): \(out.stderr)")
        #expect(out.stderr.hasPrefix("reel: ") && out.stderr.split(separator: "\n").count == 1, "\(context): \(out.stderr)")
        for fragment in naming { #expect(out.stderr.contains(fragment), "\(context): \(out.stderr) should name \(fragment)") }
    }

    // MARK: - Inputs (issue 17, item 14)

    @Test func aPhotoFromDevZeroIsRefusedAfterFiveMBWithSmallMemory() async throws {
        let ledger = Ledger()
        let (out, rss) = try await Self.measured(ledger, ["settings", "photo", "/dev/zero"])
        Self.oneLine(out, 64, ["/dev/zero", "invalid photo: the file has more bytes than the limit; the limit is 5,000,000 (5 MB)"], "photo /dev/zero")
        #expect(rss > 0 && rss < 64 * 1024, "peak memory \(rss) KiB")
        #expect(out.seconds < 20, "it took \(out.seconds) s")
        #expect(try AccountMoveTests.files(under: ledger.dir) == [], "nothing is written")
    }

    @Test func aPhotoFromAnEndlessFIFOIsRefusedAndOneWithoutAWriterDoesNotHang() async throws {
        let ledger = Ledger()
        let fifo = temporaryDirectory("fifo") + "/photo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A writer that never stops: it gets SIGPIPE when reel closes the FIFO.
        let writer = try ChildProcess.spawn(["/bin/sh", "-c", "exec cat /dev/zero > '\(fifo)'"])
        let (out, rss) = try await Self.measured(ledger, ["settings", "photo", fifo])
        Self.oneLine(out, 64, [fifo, "invalid photo: the file has more bytes than the limit; the limit is 5,000,000 (5 MB)"], "photo FIFO")
        #expect(rss > 0 && rss < 64 * 1024, "peak memory \(rss) KiB")
        _ = await writer.exit()

        let alone = try await ledger.reel(["settings", "photo", fifo])
        Self.oneLine(alone, 64, [fifo, "the file is empty"], "photo FIFO without writer")
        #expect(alone.seconds < 20, "it took \(alone.seconds) s")
        #expect(try AccountMoveTests.files(under: ledger.dir) == [], "nothing is written")
    }

    /// A `/proc` file says it has 0 bytes but has content: it is read (and refused for what it is).
    @Test func aProcFileIsReadForWhatItHolds() async throws {
        let out = try await Ledger().reel(["settings", "photo", "/proc/self/status"])
        Self.oneLine(out, 64, ["/proc/self/status", "neither a JPEG nor a PNG"], "photo /proc")
    }

    @Test func importsAreReadUpToTheirLimits() async throws {
        let ledger = Ledger()
        // An endless device: refused one byte past 512 MiB, memory within the limit.
        let (zero, rss) = try await Self.measured(ledger, ["account", "import", "/dev/zero"])
        Self.oneLine(zero, 64, ["/dev/zero", "larger than the limit of 536,870,912 bytes (512 MiB)"], "import /dev/zero")
        #expect(rss > 0 && rss < 700 * 1024, "peak memory \(rss) KiB")
        // A regular file over the limit is refused unread (a sparse file: instant, no memory).
        let big = temporaryDirectory("big") + "/export.json"
        #expect(FileManager.default.createFile(atPath: big, contents: Data("{\"format\":\"reel-export/1\"".utf8)))
        #expect(truncate(big, off_t(512 << 20) + 1) == 0)
        for command in [["account", "import", big], ["account", "verify-export", big]] {
            let (out, rss) = try await Self.measured(ledger, command)
            Self.oneLine(out, 64, [big, "larger than the limit of 536,870,912 bytes (512 MiB)"], "\(command)")
            #expect(rss > 0 && rss < 64 * 1024, "\(command): peak memory \(rss) KiB")
        }
        // Another app's list over 64 MiB.
        let list = temporaryDirectory("big") + "/list.csv"
        #expect(FileManager.default.createFile(atPath: list, contents: Data("Date,Name,Year,Letterboxd URI\n".utf8)))
        #expect(truncate(list, off_t(64 << 20) + 1) == 0)
        Self.oneLine(try await ledger.reel(["account", "import", list]), 64, [list, "larger than the limit of 67,108,864 bytes (64 MiB) for a Letterboxd CSV"], "list")
        #expect(try AccountMoveTests.files(under: ledger.dir) == [], "nothing is written")
    }

    @Test func aCredentialFromAnEndlessStdinIsRefusedAndNothingIsSaved() async throws {
        let ledger = Ledger()
        let (out, rss) = try await Self.measured(ledger, ["tmdb", "login", "--no-check"], stdin: "/dev/zero")
        Self.oneLine(out, 64, ["standard input", "limit of 4,096 bytes (4 KiB) for a credential"], "login < /dev/zero")
        #expect(rss > 0 && rss < 64 * 1024, "peak memory \(rss) KiB")
        #expect(!FileManager.default.fileExists(atPath: ledger.dir + "/config/reel/credentials.json"))
    }

    /// The saved credentials file replaced by a FIFO, an endless device or a huge file: refused
    /// at once (64), never waited on or read without end.
    @Test func aCredentialsFileThatIsNotARegularFileIsRefusedWithoutHanging() async throws {
        let ledger = Ledger()
        let config = ledger.dir + "/config/reel"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let path = config + "/credentials.json"
        let cases: [(String, () throws -> Void)] = [
            ("is not a regular file", { #expect(mkfifo(path, 0o600) == 0) }),
            ("is not a regular file", { #expect(symlink("/dev/zero", path) == 0) }),
            ("is larger than 65536 bytes", {
                #expect(FileManager.default.createFile(atPath: path, contents: Data("{\"tmdb_api_token\": \"".utf8), attributes: [.posixPermissions: 0o600]))
                #expect(truncate(path, 100_000_000) == 0)
            }),
        ]
        for (problem, make) in cases {
            try? FileManager.default.removeItem(atPath: path)
            try make()
            let (out, rss) = try await Self.measured(ledger, ["tmdb", "status"])
            Self.oneLine(out, 64, [path, problem], "credentials \(problem)")
            #expect(rss > 0 && rss < 64 * 1024, "peak memory \(rss) KiB")
            #expect(out.seconds < 20, "it took \(out.seconds) s")
        }
    }

    // MARK: - --out (item 15)

    /// A ledger with one small account, `ann`.
    static func smallLedger() async throws -> Ledger {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550", "603"], user: "ann").status == 0)
        #expect(try await ledger.reel(["settings", "name", "Ann Secret"], user: "ann").status == 0)
        return ledger
    }

    static func kind(_ path: String) -> (mode_t, ino_t, dev_t) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return (0, 0, 0) }
        return (info.st_mode & S_IFMT, info.st_ino, info.st_rdev)
    }

    @Test func outRefusesDevicesFIFOsSocketsDirectoriesAndLinksAndLeavesThemAsTheyWere() async throws {
        let ledger = try await Self.smallLedger()
        let dir = temporaryDirectory("out")
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        #expect(mkdir(dir + "/directory", 0o700) == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/target.json"))
        #expect(symlink(dir + "/target.json", dir + "/link") == 0)
        #expect(symlink("/dev/null", dir + "/link-to-null") == 0)
        #expect(symlink(dir + "/nowhere.json", dir + "/dangling") == 0)
        let socketMade = try await Harness.run("python3", ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", dir + "/socket"])
        #expect(socketMade.status == 0, "\(socketMade.stderr)")
        var targets: [(String, String)] = [
            ("/dev/null", "a character device"), (dir + "/fifo", "a FIFO"), (dir + "/socket", "a socket"), (dir + "/directory", "a directory"),
            (dir + "/link", "a symbolic link"), (dir + "/link-to-null", "a symbolic link"), (dir + "/dangling", "a symbolic link"),
        ]
        // A device node of our own, as root (else /dev/null above stands in).
        if mknod(dir + "/null", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 { targets.append((dir + "/null", "a character device")) }
        for (path, kind) in targets {
            let before = Self.kind(path)
            for format in ["reel", "letterboxd"] {
                for json in [false, true] {
                    let out = try await ledger.reel(["account", "export", "--out", path, "--format", format] + (json ? ["--json"] : []), user: "ann")
                    Self.oneLine(out, 64, [path, "is \(kind)", "only to a new path or over a regular file"], "--out \(path) \(format)")
                    #expect(out.stdout.isEmpty, "\(path): \(out.stdout)")
                    let after = Self.kind(path)
                    #expect(after.0 == before.0 && after.1 == before.1 && after.2 == before.2, "\(path) was replaced")
                }
            }
        }
        #expect(Self.kind("/dev/null").0 == S_IFCHR)
        #expect(FileManager.default.contents(atPath: dir + "/target.json") == Data("mine".utf8))
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/directory") == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") } == [])
        // Empty paths, paths ending in a slash, missing directories.
        Self.oneLine(try await ledger.reel(["account", "export", "--out", ""], user: "ann"), 64, ["an empty path names no file"], "empty")
        Self.oneLine(try await ledger.reel(["account", "export", "--out", dir + "/"], user: "ann"), 64, ["names a directory"], "slash")
        Self.oneLine(try await ledger.reel(["account", "export", "--out", dir + "/no/x.json"], user: "ann"), 64, ["does not exist"], "no dir")
    }

    @Test func outReplacesARegularFileWholeWithMode0600() async throws {
        let ledger = try await Self.smallLedger()
        let dir = temporaryDirectory("out")
        let path = dir + "/ann.json"
        try Data("an older export".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        for tmpfile in ["on", "off"] {
            let out = try await ledger.reel(["account", "export", "--out", path], user: "ann", environment: ["REEL_OUTPUT_TMPFILE": tmpfile])
            #expect(out.status == 0, "\(out.stderr)")
            #expect(Self.kind(path).0 == S_IFREG)
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600)
            #expect(try await ledger.reel(["account", "verify-export", path]).status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["ann.json"])
        }
    }

    /// A full device: 74, one line saying what could not be written, nothing left there.
    @Test func anOutFileOnAFullDiskIs74AndLeavesNothing() async throws {
        let ledger = try await Self.smallLedger()
        _ = try await ledger.reel(["fav", "add", "movie"] + (1...1_500).map(String.init), user: "ann", environment: LedgerHome.unchecked)
        let mountPoint = temporaryDirectory("full")
        let mounted = try await Harness.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint])
        guard mounted.status == 0 else {
            print("skipped: cannot mount a tmpfs here (\(mounted.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
            return
        }
        defer { Harness.runInDefer("/bin/umount", [mountPoint]) }
        for tmpfile in ["on", "off"] {
            let out = try await ledger.reel(["account", "export", "--no-details", "--out", mountPoint + "/ann.json"], user: "ann", environment: ["REEL_OUTPUT_TMPFILE": tmpfile])
            Self.oneLine(out, 74, [mountPoint + "/ann.json", "No space left on device", "nothing was written there"], "full disk \(tmpfile)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint) == [], "\(tmpfile)")
        }
    }
}
