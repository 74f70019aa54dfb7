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
        note("batched append, \(appendEvents) events of \(payload) bytes, 1,000 per transaction")

        // 1. Batched append.
        let lmdbBatch = try baseline.run(["lmdb-batch", root + "/c-lmdb-batch", "\(appendEvents)", "1000", "\(payload)"])
        let sqliteBatch = try baseline.run(["sqlite-batch", root + "/sqlite-batch", "\(appendEvents)", "1000", "\(payload)"])
        let reelBatch = try Workloads.batchedAppend(root + "/reel-batch", events: appendEvents, payload: payload)
        let reelPipelined = try await Workloads.pipelinedAppend(root + "/reel-pipelined", events: appendEvents, payload: payload)
        table.row("1. batched append (events/s)", reel: reelBatch, lmdb: lmdbBatch.number("eventsPerSecond"), sqlite: sqliteBatch.number("eventsPerSecond"), target: "Reel ≥ 250,000", met: reelBatch >= 250_000)
        table.row("   same, 2 async producers, group commit", reel: reelPipelined, lmdb: nil, sqlite: nil, target: "Reel ≥ 250,000", met: reelPipelined >= 250_000)

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
        let verify = try Measure.inChild(["measure", "verify", ledger])
        let read = try Measure.inChild(["measure", "read", ledger])
        table.row("4. full verify (events/s)", reel: verify.number("eventsPerSecond"), lmdb: nil, sqlite: nil, target: "≥ 2,000,000", met: verify.number("eventsPerSecond") >= 2_000_000)
        table.row("   verify peak RSS, incl. mapped file (MiB)", reel: verify.number("peakMiB"), lmdb: nil, sqlite: nil, target: "(reported)", met: nil, decimals: 1)
        table.row("   verify anonymous memory (MiB)", reel: verify.number("anonymousMiB"), lmdb: nil, sqlite: nil, target: "streaming", met: nil, decimals: 1)
        table.row("   full read-and-open (events/s)", reel: read.number("eventsPerSecond"), lmdb: nil, sqlite: nil, target: "≥ 1,000,000", met: read.number("eventsPerSecond") >= 1_000_000)
        table.row("   read peak RSS, incl. mapped file (MiB)", reel: read.number("peakMiB"), lmdb: nil, sqlite: nil, target: "(reported)", met: nil, decimals: 1)
        table.row("   read anonymous memory (MiB)", reel: read.number("anonymousMiB"), lmdb: nil, sqlite: nil, target: "streaming", met: nil, decimals: 1)

        print()
        print(quick ? "reel-bench --quick (smoke test; sizes too small to mean anything)" : "reel-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, payload \(payload) bytes")
        table.print()
    }

    private func note(_ text: String) {
        FileHandle.standardError.write(Data("… \(text)\n".utf8))
    }
}
