import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Each command opens the ledger once: the application core (`Application`) opens it at most once
/// per process and every use case shares it. Counted from outside, as the kernel sees it: `strace`
/// records every `openat` of the real binary, and each opening of the LMDB environment opens its
/// `lock.mdb` once.
@Suite struct LedgerOpensTests {
    typealias Ledger = LedgerCommandTests.Ledger

    static let commands: [[String]] = [
        ["fav", "add", "movie", "603"], ["fav", "remove", "movie", "603"], ["saved"], ["saved", "--as-of", "1"], ["settings"],
        ["settings", "name", "Ann"], ["settings", "language", "de-DE"], ["history"], ["accounts"], ["audit", "verify"],
        ["projections", "rebuild", "--check"], ["movies"], ["search", "matrix"], ["show", "movie", "550"], ["genres"],
        ["person", "287"],
    ]

    @Test(arguments: commands)
    func aCommandOpensTheLedgerOnce(_ arguments: [String]) async throws {
        let ledger = Ledger()
        try await ledger.reel(["fav", "add", "movie", "550", "680"])
        let trace = temporaryDirectory("opens") + "/trace"
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in ["TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "XDG_CONFIG_HOME": ledger.dir + "/config", "REEL_DATA_DIR": ledger.dir] {
            environment[name] = value
        }
        let out = try await Harness.run("strace", ["-f", "-qq", "-e", "trace=openat", "-o", trace, Harness.binaries + "/reel"] + arguments, environment: environment)
        #expect(out.status == 0, "\(arguments): \(out.stderr)")
        let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("/ledger/lock.mdb\"") }
        #expect(opens.count == 1, "\(arguments.joined(separator: " ")) opened the ledger \(opens.count) times")
    }
}
