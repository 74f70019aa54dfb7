import LMDBStore
import ArgumentParser
import Catalog
import EventLog
import FakeTMDb
import Foundation
import JSONKit
import LMDB
import Ledger

/// The benchmark of issue 3: projections rebuild over a domain ledger, and whole-process wall
/// times of `reel saved` and `reel fav add` on an account with thousands of favorites: with the
/// bundled sample catalog, and with TMDb (the fake server in-process) answering from a warm cache.
struct LedgerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Benchmark the ledger: projections rebuild, and `reel saved` / `reel fav add` as whole processes.")

    @Option(help: "Events in the domain ledger.") var events = 1_000_000
    @Option(help: "Accounts they are spread over.") var accounts = 10_000
    @Option(help: "Favorites of the big account timed by `reel saved`.") var favorites = 5_000
    @Option(help: "Runs of each timed command (the median is reported).") var runs = 21
    @Flag(help: "Small sizes: a smoke test of the harness, not a measurement.") var quick = false
    @Option(help: "Where to write scratch files (default: a new temporary directory).") var scratch: String?
    @Flag(help: "Keep the scratch directory (to profile its ledger with `reel-bench measure`).") var keep = false

    func run() async throws {
        let root = scratch ?? FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-ledger-\(getpid())").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: root) } }
        let events = quick ? 20_000 : self.events
        let accounts = quick ? 200 : self.accounts
        let favorites = quick ? 500 : self.favorites
        let runs = quick ? 3 : self.runs
        let reel = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
        guard FileManager.default.isExecutableFile(atPath: reel) else { throw BenchmarkError("no reel binary beside reel-bench: \(reel)") }
        var table = Table(columns: ["benchmark", "Reel", "baseline", "ratio", "target", "met"])

        note("building a \(events)-event domain ledger over \(accounts) accounts, plus two with \(favorites) favorites")
        let dir = root + "/ledger"
        let built = try DomainLedger.build(dir, events: events, accounts: accounts, bigFavorites: favorites)

        // Catch-up (projections made from nothing inline) happens in the first process; the
        // rebuild is timed in fresh ones so each one's peak memory is its own. Three runs, the
        // median reported: the first, right after the ledger is written, also waits on the
        // kernel writing that gigabyte back.
        let catchUp = try Measure.inChild(["measure", "catch-up", dir])
        let rebuilds = try (0..<3).map { _ in try Measure.inChild(["measure", "rebuild", dir]) }.sorted { $0.number("eventsPerSecond") < $1.number("eventsPerSecond") }
        let rebuild = rebuilds[1]
        let rate = rebuild.number("eventsPerSecond")
        table.row(["1. projections rebuild (events/s, median of 3)", count(rate), "", "", "≥ 1,000,000", rate >= 1_000_000 ? "yes" : "NO"])
        table.row(["   slowest and fastest of the 3 (events/s)", count(rebuilds[0].number("eventsPerSecond")) + " / " + count(rebuilds[2].number("eventsPerSecond")), "", "", "(reported)", ""])
        table.row(["   rebuild seconds for the ledger", fixed(rebuild.number("seconds"), 2), "", "", "≈ 1 s", ""])
        table.row(["   rebuild peak RSS, incl. mapped file (MiB)", fixed(rebuild.number("peakMiB"), 1), "", "", "(reported)", ""])
        table.row(["   rebuild anonymous memory (MiB)", fixed(rebuild.number("anonymousMiB"), 1), "", "", "(reported)", ""])
        table.row(["   first open: inline catch-up (events/s)", count(catchUp.number("eventsPerSecond")), "", "", "(reported)", ""])

        // Whole-process wall times, against `reel --version` (process start, no ledger) as the floor.
        // No credentials: the bundled sample catalog answers (it knows few of the big account's ids).
        let env = [
            "REEL_DATA_DIR": dir, "REEL_USER": built.bigHandle, "NO_COLOR": "1", "XDG_CONFIG_HOME": root + "/config",
            "TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "REEL_OFFLINE": "",
        ]
        let floor = try Timing.median(runs) { _ in [reel, "--version"] }
        let saved = try Timing.median(runs, environment: env) { _ in [reel, "saved"] }
        let savedJSON = try Timing.median(runs, environment: env) { _ in [reel, "saved", "--json"] }
        // Movies the sample catalog holds (it refuses others) that the big account has not saved;
        // runs beyond their number add one already saved.
        let addable = SampleCatalog.bundled.movieIDs.filter { $0 > favorites }.sorted()
        let add = try Timing.median(runs, environment: env) { i in [reel, "fav", "add", "movie", "\(addable[i % addable.count])"] }

        // TMDb (the fake server) for the account of synthetic titles, its details cached by one run first.
        var options = FakeTMDbServer.Options()
        options.syntheticMovies = favorites
        let server = try await FakeTMDbServer.start(options: options)
        var tmdb = env
        tmdb["REEL_USER"] = built.tmdbHandle
        tmdb["TMDB_API_TOKEN"] = "bench-token"
        tmdb["REEL_TMDB_BASE_URL"] = server.baseURL
        tmdb["REEL_TMDB_RATE"] = "100000"
        note("reel saved with TMDb: filling the cache with \(favorites) titles' details")
        _ = try Timing.median(1, environment: tmdb) { _ in [reel, "saved"] }
        server.reset()
        let warm = try Timing.median(runs, environment: tmdb) { _ in [reel, "saved"] }
        let warmRequests = server.statistics.requests
        await server.stop()

        table.row(["2. reel saved, \(favorites) favorites (ms, p50)", fixed(saved * 1e3, 1), fixed(floor * 1e3, 1), fixed(saved / floor, 1) + "×", "≤ 50 ms", saved <= 0.050 ? "yes" : "NO"])
        table.row(["   reel saved --json (ms, p50)", fixed(savedJSON * 1e3, 1), fixed(floor * 1e3, 1), fixed(savedJSON / floor, 1) + "×", "(reported)", ""])
        table.row(["   with TMDb, details from a warm cache (ms, p50)", fixed(warm * 1e3, 1), fixed(floor * 1e3, 1), fixed(warm / floor, 1) + "×", "≤ 50 ms", warm <= 0.050 ? "yes" : "NO"])
        table.row(["   requests the server saw", "\(warmRequests)", "", "", "0", warmRequests == 0 ? "yes" : "NO"])
        table.row(["3. reel fav add (ms, p50, fsync'd)", fixed(add * 1e3, 1), fixed(floor * 1e3, 1), fixed(add / floor, 1) + "×", "≤ 30 ms", add <= 0.030 ? "yes" : "NO"])

        print()
        print(quick ? "reel-bench ledger --quick (smoke test; sizes too small to mean anything)"
            : "reel-bench ledger: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(built.events) events, \(accounts + 1) accounts; baseline = `reel --version` (process start)")
        table.print()
    }

    private func count(_ v: Double) -> String { v.isFinite ? Int(v.rounded()).formatted(.number.grouping(.automatic)) : "–" }
    private func fixed(_ v: Double, _ d: Int) -> String { v.isFinite ? String(format: "%.\(d)f", v) : "–" }
    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}

/// Whole-process wall times.
enum Timing {
    /// The median wall time in seconds of `runs` runs of the command `arguments(i)` builds.
    static func median(_ runs: Int, environment: [String: String] = [:], _ arguments: (Int) -> [String]) throws -> Double {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        var times: [Double] = []
        for i in 0..<runs { times.append(try run(arguments(i), environment: env)) }
        times.sort()
        return times[times.count / 2]
    }

    /// The wall time in seconds of one run of `command` (stdout and stderr to /dev/null, exactly
    /// `environment`), from spawning it to reaping it. A blocking `waitpid`, not Foundation's
    /// `Process.waitUntilExit`, which polls a run loop and added 5–20 ms to a 20 ms process.
    /// A non-zero exit is an error.
    static func run(_ command: [String], environment: [String: String]) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let status = Spawn.status(command, environment: environment)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard status == 0 else {
            let what = status == 127 ? "could not be started" : status > 128 ? "was killed by signal \(status - 128)" : "exited \(status)"
            throw BenchmarkError("\(command.joined(separator: " ")) \(what)")
        }
        return seconds
    }
}

/// A realistic ledger written straight through the event log (no projections): every account
/// opens, names itself, picks a language, then adds and sometimes removes favorites.
enum DomainLedger {
    struct Built { let events: Int; let bigHandle: String; let tmdbHandle: String }

    static func build(_ dir: String, events: Int, accounts: Int, bigFavorites: Int) throws -> Built {
        let log = try EventLog.open(
            at: dir, configuration: .init(ledger: .init(initialMapSize: 1 << 30, durability: .unsafeNoSync)))
        let perAccount = max(4, events / accounts)
        var written = 0
        let languages = try ["en-US", "de-DE", "pt-BR", "fr-FR", "ja-JP"].map { try LanguageTag($0) }
        for a in 0..<accounts {
            var domain: [DomainEvent] = [
                .accountOpened(try AccountHandle("user-\(a)")), .profileNameChanged(try ProfileName("User \(a)")),
                .languageSwitched(languages[a % languages.count]),
            ]
            var saved: [MediaKey] = []
            var next: Int64 = 1
            while domain.count < perAccount {
                if domain.count % 5 == 4, let victim = saved.popLast() {
                    domain.append(.favoriteRemoved(victim))
                } else {
                    let key = try MediaKey(next % 3 == 0 ? .tv : .movie, next * 7 + Int64(a % 13))
                    next += 1
                    saved.append(key)
                    domain.append(.favoriteAdded(key))
                }
            }
            try append(domain, to: log, stream: "account-bench-\(a)")
            written += domain.count
        }
        var big: [DomainEvent] = [.accountOpened(try AccountHandle("big"))]
        for i in 0..<bigFavorites { big.append(.favoriteAdded(try MediaKey(i % 2 == 0 ? .movie : .tv, Int64(i + 1)))) }
        try append(big, to: log, stream: "account-bench-big")
        written += big.count
        // The fake server's synthetic movies, every one of which TMDb (the fake) knows.
        var known: [DomainEvent] = [.accountOpened(try AccountHandle("big-tmdb"))]
        for i in 1...max(1, bigFavorites) { known.append(.favoriteAdded(try MediaKey(.movie, Int64(SampleCatalog.syntheticBase + i)))) }
        try append(known, to: log, stream: "account-bench-big-tmdb")
        written += known.count
        try log.environment.sync()
        return Built(events: written, bigHandle: "big", tmdbHandle: "big-tmdb")
    }

    static func append(_ events: [DomainEvent], to log: EventLog, stream: String) throws {
        let proposed = try events.map { try ProposedEvent(type: $0.type, schemaVersion: $0.schemaVersion, payload: $0.payload.encoded()) }
        for chunk in stride(from: 0, to: proposed.count, by: 1_000) {
            try log.append(Array(proposed[chunk..<min(chunk + 1_000, proposed.count)]), to: try StreamID(stream))
        }
    }
}
