import EndToEndSupport
import Foundation
import Processes
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The terminal app against hostile input, through the real `reel` (issue 36): a `keys.toml` of
/// any bytes is one short line naming the file and the line, exit 64, at once (TOMLKit's C++
/// parser aborted with a backtrace on `[[[` and the process hung); a paste of 10,000 characters
/// into the Search field is on screen at once (it froze the app for 20–40 s).
@Suite struct HostileInputTerminalTests {
    struct Refusal {
        let status: Int32
        let stderr: String
        /// The processor time it used (user and system): what "at once" bounds. Its wall time
        /// grows with whatever else the machine runs; this does not.
        let processorSeconds: Double
    }

    /// `reel ui` with `bytes` as its keys.toml, in a pseudo-terminal of its own (it needs one)
    /// with stderr to a file: how it ended, what it said, how long it took.
    static func refusal(_ bytes: [UInt8], file: ((String) async throws -> Void)? = nil) async throws -> Refusal {
        let config = temporaryDirectory("keys-config")
        try FileManager.default.createDirectory(atPath: config + "/reel", withIntermediateDirectories: true)
        if let file {
            try await file(config + "/reel/keys.toml")
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: config + "/reel/keys.toml"))
        }
        let stderr = temporaryDirectory("keys-stderr") + "/stderr"
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": temporaryDirectory("keys-home"), "TERM": "xterm-256color", "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": config, "XDG_STATE_HOME": temporaryDirectory("keys-state"), "REEL_DATA_DIR": temporaryDirectory("keys-data"),
            "REEL_KEYRING": Harness.keyring, "REEL_IMAGES": "none", "TMDB_API_TOKEN": "", "TMDB_API_KEY": "",
        ]
        let terminal = try RawTerminal(["/bin/sh", "-c", "exec \"$0\" ui 2>\"$1\"", Harness.binaries + "/reel", stderr], environment: environment)
        let ended = try await terminal.waitForEnd(seconds: 30)
        return Refusal(status: ended.status, stderr: (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "", processorSeconds: ended.processorSeconds)
    }

    /// Exit 64, one line on stderr naming the file and `line`, short and free of control
    /// characters, within `seconds` of processor time.
    static func expectOneLine(_ refusal: Refusal, line: Int, _ fragment: String, within seconds: Double, _ context: String) {
        #expect(refusal.status == 64, "\(context): exit \(refusal.status): \(refusal.stderr.prefix(500))")
        let lines = refusal.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(context): one line: \(refusal.stderr.prefix(500))")
        #expect(refusal.stderr.hasPrefix("reel: ") && refusal.stderr.contains("/reel/keys.toml line \(line): "), "\(context): \(refusal.stderr.prefix(500))")
        #expect(refusal.stderr.contains(fragment), "\(context): \(refusal.stderr.prefix(500)) should say \(fragment)")
        #expect(refusal.stderr.count < 1_200, "\(context): a line of \(refusal.stderr.count) characters")
        #expect(!refusal.stderr.dropLast().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(context): a control character")
        #expect(refusal.processorSeconds < seconds, "\(context): took \(refusal.processorSeconds) s of processor time")
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Each kind of malformed file the issue names, and the line each is refused on.
    @Test func anyMalformedKeysFileIsOneLineAndExit64AtOnce() async throws {
        // The processor time a refusal takes at all (starting the binary), measured in this run.
        let baseline = try await Self.refusal(Self.bytes("[colours]\n"))
        Self.expectOneLine(baseline, line: 1, "'colours' is not a section", within: 30, "baseline")
        let within = baseline.processorSeconds + 2
        let cases: [(String, [UInt8], Int, String)] = [
            ("[[[", Self.bytes("[[["), 1, "not TOML: expected a name"),
            ("[[[ later", Self.bytes("[keys]\ndown = \"n\"\n[[[\n"), 3, "not TOML: expected a name"),
            ("an unterminated string", Self.bytes("[keys]\ndown = \"n\n"), 2, "a string is not closed"),
            ("an unterminated literal string", Self.bytes("[keys]\nup = 'k"), 2, "a string is not closed"),
            ("an unterminated multi-line string", Self.bytes("[keys]\n\nup = \"\"\"k\n\n\n"), 3, "not closed by \"\"\""),
            ("a NUL byte", Self.bytes("[keys]\n\ndo") + [0] + Self.bytes("wn = \"n\"\n"), 3, "a control character (U+0000)"),
            ("an escape character", Self.bytes("[keys]\ndown = \"\u{1B}[2J\"\n"), 2, "a control character (U+001B)"),
            ("invalid UTF-8", Self.bytes("[keys]\n# caf") + [0xE9, 0x0A], 2, "not UTF-8 text"),
            ("a huge file", [UInt8](repeating: UInt8(ascii: "#"), count: 20_000_000), 1, "longer than 65,536 bytes"),
            ("a huge file of lines", Self.bytes(String(repeating: "# comment\n", count: 1_000_000)), 6_554, "longer than 65,536 bytes"),
            ("deep nesting of tables", Self.bytes("[" + String(repeating: "a.", count: 30_000) + "b]\n"), 1, "'a' is not a section"),
            ("deep nesting under keys", Self.bytes("[keys." + String(repeating: "a.", count: 30_000) + "b]\n"), 1, "no action is called 'a'"),
            ("arrays nested deep", Self.bytes("[keys]\na = " + String(repeating: "[", count: 60_000)), 2, "nested more than 8 deep"),
            ("inline tables nested deep", Self.bytes("keys = " + String(repeating: "{a=", count: 20_000)), 1, "nested more than 8 deep"),
            ("a name of escape sequences", Self.bytes("[keys]\n\"\\u001B]52;c;x\\u0007\u{202E}\" = \"n\"\n"), 2, "no action is called '\\u{1b}]52;c;x\\u{7}\\u{202e}'"),
        ]
        for (name, bytes, line, fragment) in cases {
            await Self.expectOneLine(try Self.refusal(bytes), line: line, fragment, within: within, name)
        }
    }

    /// A name of 20,000 characters took 7.6 s to refuse and was echoed whole: refused by its
    /// length, quoted cut short, at once.
    @Test func aKeyNameOfTwentyThousandCharactersIsRefusedByItsLength() async throws {
        let baseline = try await Self.refusal(Self.bytes("[colours]\n"))
        let name = String(repeating: "x", count: 20_000)
        let refusal = try await Self.refusal(Self.bytes("[keys]\n\(name) = \"n\"\n"))
        Self.expectOneLine(refusal, line: 2, "no action is called '\(name.prefix(40))…': a name of 20,000 characters", within: min(2, baseline.processorSeconds + 1.5), "a long name")
        #expect(refusal.stderr.count < 300, "\(refusal.stderr.count) characters")
        let value = try await Self.refusal(Self.bytes("[keys]\ndown = \"\(name)\"\n"))
        Self.expectOneLine(value, line: 2, "'\(name.prefix(40))…' is not a key", within: min(2, baseline.processorSeconds + 1.5), "a long key")
    }

    /// What is no regular file is refused without being read: a FIFO (which would wait for a
    /// writer), a directory.
    @Test func aKeysFileThatIsNoFileIsRefusedWithoutWaiting() async throws {
        // Nobody ever opens the FIFO for writing: an app that opened it to read would wait for
        // good, and `refusal` would give up on it (30 s) and throw.
        let fifo = try await Self.refusal([]) { path in #expect(mkfifo(path, 0o600) == 0) }
        #expect(fifo.status == 64 && fifo.stderr.contains("keys.toml: is not a regular file"), "\(fifo.stderr)")
        let directory = try await Self.refusal([]) { path in try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        #expect(directory.status == 64 && directory.stderr.contains("keys.toml: is not a regular file"), "\(directory.stderr)")
    }

    /// 10,000 characters pasted into the Search field (tmux hands them over as a terminal does a
    /// paste): the end of them is on screen, and the app goes on taking keys.
    @Test func aPasteOfTenThousandCharactersIntoSearchIsShownAndTheAppGoesOn() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("3")
        try await terminal.waitFor("Benedict Cumberbatch")
        let pasted = String(repeating: "abcdefghij", count: 999) + "PASTED-END"
        let before = try #require(try await terminal.processorSeconds())
        try await terminal.type("-l", pasted)
        let screen = try await terminal.waitFor("hijPASTED-END", seconds: 30)
        #expect(screen.contains("Search: "), "\(screen)")
        // The app's own processor time for the paste: some 0.1 s; the quadratic handling took
        // seconds of it even at its best. (Its wall time grows with what else the machine runs.)
        let spent = try #require(try await terminal.processorSeconds()) - before
        #expect(spent < 1.5, "the paste took \(spent) s of the app's processor time")
        // Still typing: backspace takes the last character away.
        try await terminal.type("BSpace", "BSpace", "BSpace")
        try await terminal.waitFor("hijPASTED-", seconds: 10)
        await #expect(try !terminal.screen().contains("PASTED-END"))
        try await terminal.type("Escape", "q")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }
}
