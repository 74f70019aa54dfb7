import ArgumentParser
import EventLog
import Foundation

/// The benchmark of issue 2: Reel's log against raw LMDB (C) and SQLite, side by side in one run.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the benchmarks and print a table (build with -c release).")

    @Option(help: "Events for the batched-append comparison.") var appendEvents = 200_000
    @Option(help: "Durable single-event appends to time.") var singles = 1_000
    @Option(help: "Events per appender in the group-commit run (64 appenders).") var perAppender = 100
    @Option(help: "Events in the ledger that is verified and read in full.") var ledgerEvents = 1_000_000
    @Option(help: "Runs of the batched appends, the verify and the read (the median is reported, with the slowest and fastest; default 3, 1 with --quick).")
    var repeats: Int?
    @Flag(help: "Small sizes: a smoke test of the harness, not a measurement.") var quick = false
    @Option(help: "Where to write scratch files (default: a new temporary directory).") var scratch: String?
    @Flag(help: "Keep the scratch files (the verified ledger is <scratch>/reel-ledger), for profiling.") var keep = false

    func run() async throws {
        let root = scratch ?? FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(atPath: root) } }
        let appendEvents = quick ? 5_000 : self.appendEvents
        let singles = quick ? 50 : self.singles
        let perAppender = quick ? 5 : self.perAppender
        let ledgerEvents = quick ? 20_000 : self.ledgerEvents
        let payload = 200
        let baseline = try Baseline.compile(into: root)
        var table = Table()
        let repeats = max(1, self.repeats ?? (quick ? 1 : 3))
        note("batched append, \(appendEvents) events of \(payload) bytes, 1,000 per transaction, \(repeats) runs of each")

        // 1. Batched append: the systems take turns, each run into a fresh directory, so a slow
        // phase of the machine falls on all of them alike; the median run of each is reported.
        var lmdbBatches: [Double] = [], sqliteBatches: [Double] = [], reelBatches: [Double] = [], reelPipelined: [Double] = []
        var withoutTree: [Double] = []
        for run in 0..<repeats {
            let dirs = ["c-lmdb-batch", "sqlite-batch", "reel-batch", "reel-pipelined", "reel-no-tree"].map { root + "/\($0)-\(run)" }
            lmdbBatches.append(try baseline.run(["lmdb-batch", dirs[0], "\(appendEvents)", "1000", "\(payload)"]).number("eventsPerSecond"))
            sqliteBatches.append(try baseline.run(["sqlite-batch", dirs[1], "\(appendEvents)", "1000", "\(payload)"]).number("eventsPerSecond"))
            reelBatches.append(try Workloads.batchedAppend(dirs[2], events: appendEvents, payload: payload))
            reelPipelined.append(try await Workloads.pipelinedAppend(dirs[3], events: appendEvents, payload: payload))
            // The same appends without the Merkle tree: the baseline of the tree's cost (issue 40).
            withoutTree.append(try Workloads.batchedAppend(dirs[4], events: appendEvents, payload: payload, tree: false))
            if !keep { for dir in dirs { try? FileManager.default.removeItem(atPath: dir) } }
        }
        let reelBatch = Self.median(reelBatches)
        table.row(
            "1. batched append (events/s)", reel: reelBatch, lmdb: Self.median(lmdbBatches), sqlite: Self.median(sqliteBatches),
            target: "Reel ≥ 250,000", met: reelBatch >= 250_000)
        if repeats > 1 { table.row(Self.range("   slowest / fastest of \(repeats)", reelBatches, lmdb: lmdbBatches, sqlite: sqliteBatches)) }
        let baselineWithoutTree = Self.median(withoutTree)
        table.row("   same without the Merkle tree (baseline)", reel: baselineWithoutTree, lmdb: nil, sqlite: nil, target: "(reported)", met: nil)
        let slower = 100 * (1 - reelBatch / baselineWithoutTree)
        table.row("   the tree's cost (% slower)", reel: slower, lmdb: nil, sqlite: nil, target: "≤ 10%", met: slower <= 10, decimals: 1)
        let pipelined = Self.median(reelPipelined)
        table.row("   same, 2 async producers, group commit", reel: pipelined, lmdb: nil, sqlite: nil, target: "Reel ≥ 250,000", met: pipelined >= 250_000)

        // 2. Durable single-event appends.
        note("durable single-event appends, \(singles) each")
        let lmdbSingle = try baseline.run(["lmdb-single", root + "/c-lmdb-single", "\(singles)", "\(payload)"])
        let sqliteSingle = try baseline.run(["sqlite-single", root + "/sqlite-single", "\(singles)", "\(payload)"])
        let reelSingle = try Workloads.singleAppends(root + "/reel-single", count: singles, payload: payload)
        table.row("2. single append p50 (ms)", reel: reelSingle.p50 / 1_000, lmdb: lmdbSingle.number("p50Micros") / 1_000, sqlite: sqliteSingle.number("p50Micros") / 1_000, target: "Reel p50 ≤ 0.5 ms", met: reelSingle.p50 <= 500, decimals: 3)
        table.row("   single append p99 (ms)", reel: reelSingle.p99 / 1_000, lmdb: lmdbSingle.number("p99Micros") / 1_000, sqlite: sqliteSingle.number("p99Micros") / 1_000, target: "(reported)", met: nil, decimals: 3)

        // 3. Group commit.
        note("group commit, 64 appenders × \(perAppender) single-event appends")
        let group = try await Workloads.groupCommit(root + "/reel-group", appenders: 64, each: perAppender, payload: payload)
        let sqliteCommits = sqliteSingle.number("eventsPerSecond")
        table.row("3. 64 concurrent appenders (events/s)", reel: group.eventsPerSecond, lmdb: nil, sqlite: sqliteCommits, target: "Reel ≥ 5 × SQLite", met: group.eventsPerSecond >= 5 * sqliteCommits)
        table.row("   ratio to SQLite single-insert commits", reel: group.eventsPerSecond / sqliteCommits, lmdb: nil, sqlite: 1, target: "≥ 5", met: nil, decimals: 1)
        table.row("   events per transaction (mean)", reel: group.eventsPerTransaction, lmdb: nil, sqlite: 1, target: "(reported)", met: nil, decimals: 1)

        // 4. Verify and read-and-open, each in a fresh process for an honest peak memory.
        note("building a \(ledgerEvents)-event ledger over 10,000 streams")
        let ledger = root + "/reel-ledger"
        _ = try Workloads.batchedAppend(ledger, events: ledgerEvents, payload: payload, streams: 10_000)
        var verifies: [JSONFigures] = [], reads: [JSONFigures] = []
        for _ in 0..<repeats {
            verifies.append(try Measure.inChild(["measure", "verify", ledger]))
            reads.append(try Measure.inChild(["measure", "read", ledger]))
        }
        let verify = Self.median(verifies.map { $0.number("eventsPerSecond") })
        let read = Self.median(reads.map { $0.number("eventsPerSecond") })
        func most(_ runs: [JSONFigures], _ key: String) -> Double { runs.map { $0.number(key) }.max() ?? .nan }
        table.row("4. full verify (events/s)", reel: verify, lmdb: nil, sqlite: nil, target: "≥ 2,000,000", met: verify >= 2_000_000)
        if repeats > 1 { table.row(Self.range("   slowest / fastest of \(repeats)", verifies.map { $0.number("eventsPerSecond") })) }
        table.row("   verify peak RSS, incl. mapped file (MiB)", reel: most(verifies, "peakMiB"), lmdb: nil, sqlite: nil, target: "(reported)", met: nil, decimals: 1)
        table.row("   verify anonymous memory (MiB)", reel: most(verifies, "anonymousMiB"), lmdb: nil, sqlite: nil, target: "streaming", met: nil, decimals: 1)
        table.row("   full read-and-open (events/s)", reel: read, lmdb: nil, sqlite: nil, target: "≥ 1,000,000", met: read >= 1_000_000)
        if repeats > 1 { table.row(Self.range("   slowest / fastest of \(repeats)", reads.map { $0.number("eventsPerSecond") })) }
        table.row("   read peak RSS, incl. mapped file (MiB)", reel: most(reads, "peakMiB"), lmdb: nil, sqlite: nil, target: "(reported)", met: nil, decimals: 1)
        table.row("   read anonymous memory (MiB)", reel: most(reads, "anonymousMiB"), lmdb: nil, sqlite: nil, target: "streaming", met: nil, decimals: 1)

        // 5. Proofs over the ledger of section 4 (issue 40), and at 10,000 events.
        note("inclusion proofs: 1,000 positions of the \(ledgerEvents)-event ledger")
        for figures in [try TreeFigures.measure(ledger: ledger, samples: 1_000), try TreeFigures.measure(ledger: ledger, size: 10_000, samples: 1_000)] {
            let at = figures.size.formatted(.number.grouping(.automatic))
            table.row("5. proof at \(at) events: make p99 (ms)", reel: figures.makeP99 / 1_000, lmdb: nil, sqlite: nil, target: "≤ 1 ms", met: figures.makeP99 <= 1_000, decimals: 3)
            table.row("   check p99 (ms)", reel: figures.checkP99 / 1_000, lmdb: nil, sqlite: nil, target: "≤ 1 ms", met: figures.checkP99 <= 1_000, decimals: 3)
            table.row("   proof size, path (bytes, largest)", reel: Double(figures.pathBytes), lmdb: nil, sqlite: nil, target: "≤ 1,536", met: figures.pathBytes <= 1_536)
            table.row("   tlog-proof file with envelope (bytes)", reel: Double(figures.fileBytes), lmdb: nil, sqlite: nil, target: "(reported)", met: nil)
        }

        // 6. Tiles served by `reel serve`, beside a plain route (issue 40).
        let reel = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
        let tileEvents = quick ? 2_560 : 100_000
        note("tiles served: GET /tile/… of a \(tileEvents)-event ledger by reel serve, beside a plain route, 64 connections")
        let tiles = try await TileBench.measure(reel: reel, directory: root + "/reel-tiles", events: tileEvents, connections: 64, seconds: quick ? 1 : 10)
        table.row("6. tiles served by reel serve: p99 (ms)", reel: tiles.served.p99, lmdb: nil, sqlite: nil, target: "(reported)", met: nil, decimals: 2)
        table.row("   reel serve's GET /health: p99 (ms)", reel: tiles.health.p99, lmdb: nil, sqlite: nil, target: "(baseline)", met: nil, decimals: 2)
        table.row("   plain route, a tile's size: p99 (ms)", reel: tiles.baseline.p99, lmdb: nil, sqlite: nil, target: "(baseline)", met: nil, decimals: 2)
        table.row("   tiles served (requests/s)", reel: tiles.served.requestsPerSecond, lmdb: nil, sqlite: nil, target: "(reported)", met: nil)
        table.row("   reel serve's GET /health (requests/s)", reel: tiles.health.requestsPerSecond, lmdb: nil, sqlite: nil, target: "(baseline)", met: nil)
        table.row("   plain route (requests/s)", reel: tiles.baseline.requestsPerSecond, lmdb: nil, sqlite: nil, target: "(baseline)", met: nil)

        print()
        print(quick ? "reel-bench --quick (smoke test; sizes too small to mean anything)" : "reel-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, payload \(payload) bytes")
        table.print()
    }

    /// The middle value (the lower middle of an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
    }

    /// A "(reported)" row with the slowest and fastest run of each system (Reel's, and when given
    /// raw LMDB's and SQLite's): a slow phase of the machine shows in all of them.
    static func range(_ name: String, _ reel: [Double], lmdb: [Double] = [], sqlite: [Double] = []) -> [String] {
        func text(_ values: [Double]) -> String {
            let finite = values.filter(\.isFinite)
            guard let slowest = finite.min(), let fastest = finite.max() else { return "" }
            return [slowest, fastest].map { Int($0.rounded()).formatted(.number.grouping(.automatic)) }.joined(separator: " / ")
        }
        return [name, text(reel), text(lmdb), text(sqlite), "(reported)", ""]
    }

    private func note(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8))
    }
}
