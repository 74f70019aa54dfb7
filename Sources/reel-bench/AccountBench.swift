import LMDBStore
import ArgumentParser
import EventLog
import Foundation
import Ledger
import LMDB

/// `reel-bench account`: whole-process wall times of exporting and importing an account with a
/// long history, and of deleting an account (key destruction and key-store rewrite included)
/// in a large ledger, each against `reel --version` as the floor.
struct AccountBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Export, import and delete: whole-process wall times of the reel binary.")

    @Option(help: "Events in the exported and imported account.") var accountEvents = 100_000
    @Option(help: "Events in the ledger an account is deleted from.") var events = 1_000_000
    @Option(help: "Accounts they are spread over.") var accounts = 10_000
    @Option(help: "Runs of each timed command (the median is reported).") var runs = 5
    @Flag(help: "Small sizes, to check the benchmark runs (the figures mean nothing).") var quick = false
    @Option(help: "Where to write scratch files (default: a new temporary directory).") var scratch: String?
    @Flag(help: "Keep the scratch files (the ledger and the export) for a closer look.") var keep = false

    func run() async throws {
        let root = scratch ?? FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-account-\(getpid())").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: root) } }
        let accountEvents = quick ? 2_000 : self.accountEvents
        let events = quick ? 20_000 : self.events
        let accounts = quick ? 200 : self.accounts
        let runs = quick ? 2 : self.runs
        let reel = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
        guard FileManager.default.isExecutableFile(atPath: reel) else { throw BenchmarkError("no reel binary beside reel-bench: \(reel)") }

        note("building a ledger of \(events) events over \(accounts) accounts, plus one account with \(accountEvents) events")
        let dir = root + "/ledger"
        _ = try DomainLedger.build(dir, events: events, accounts: accounts, bigFavorites: 0)
        let log = try EventLog.open(at: dir, configuration: .init(ledger: .init(initialMapSize: 1 << 30, durability: .unsafeNoSync)))
        var history: [DomainEvent] = [.accountOpened(try AccountHandle("long")), .profileNameChanged(try ProfileName("Long History"))]
        var saved: [MediaKey] = []
        var next: Int64 = 1
        while history.count < accountEvents {
            if history.count % 3 == 2, let victim = saved.popLast() {
                history.append(.favoriteRemoved(victim))
            } else {
                let key = try MediaKey(next % 4 == 0 ? .tv : .movie, next)
                next += 1
                saved.append(key)
                history.append(.favoriteAdded(key))
            }
        }
        try DomainLedger.append(history, to: log, stream: "account-bench-long")
        try log.environment.sync()
        let env = ["REEL_DATA_DIR": dir, "NO_COLOR": "1", "TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "XDG_CONFIG_HOME": root + "/config"]
        note("first open: the projections catch up with the log (not timed)")
        _ = try Timing.median(1, environment: env) { _ in [reel, "accounts"] }

        let floor = try Timing.median(runs) { _ in [reel, "--version"] }
        let file = root + "/long.json"
        let export = try Timing.median(runs, environment: env) { _ in [reel, "--user", "long", "account", "export", "--no-details", "--out", file] }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        let verify = try Timing.median(runs, environment: env) { _ in [reel, "account", "verify-export", file] }
        let restore = try Timing.median(runs, environment: env) { i in [reel, "account", "import", file, "--as", "copy-\(i)"] }
        let delete = try Timing.median(runs, environment: env) { i in [reel, "--user", "user-\(i * 7 % accounts)", "account", "delete", "--yes"] }
        let head = try log.head()?.position ?? 0

        var table = Table(columns: ["benchmark", "Reel", "baseline", "ratio", "target", "met"])
        let base = fixed(floor * 1e3, 1)
        table.row(["1. export, \(accountEvents) events (ms, p50)", fixed(export * 1e3, 1), base, fixed(export / floor, 1) + "×", "≤ 1,000 ms", export <= 1 ? "yes" : "NO"])
        table.row(["   export file size (MiB)", fixed(Double(size) / 1_048_576, 1), "", "", "(reported)", ""])
        table.row(["   verify-export (ms, p50)", fixed(verify * 1e3, 1), base, fixed(verify / floor, 1) + "×", "(reported)", ""])
        table.row(["2. import as a new account (ms, p50)", fixed(restore * 1e3, 1), base, fixed(restore / floor, 1) + "×", "≤ 1,000 ms", restore <= 1 ? "yes" : "NO"])
        table.row(["3. delete in a \(head)-event ledger (ms, p50)", fixed(delete * 1e3, 1), base, fixed(delete / floor, 1) + "×", "≤ 2,000 ms", delete <= 2 ? "yes" : "NO"])
        print()
        print(quick ? "reel-bench account --quick (smoke test; sizes too small to mean anything)"
            : "reel-bench account: \(ProcessInfo.processInfo.activeProcessorCount) cores; whole-process wall times of the reel binary; baseline = `reel --version` (process start)")
        table.print()
    }

    private func fixed(_ v: Double, _ d: Int) -> String { v.isFinite ? String(format: "%.\(d)f", v) : "–" }
    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}
