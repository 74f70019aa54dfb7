import ArgumentParser
import Foundation
import Ledger
import Reel
import Stores
import Synchronization

/// `reel-bench commands`: the application core's command path as an HTTP service drives it (issue
/// 23). 64 concurrent tasks each add titles one command at a time through the batched async path
/// (group commit: one write transaction and one fsync per batch), with and without idempotency
/// keys, against the same number of commands run one `change` at a time (a transaction and an
/// fsync each), the baseline, in the same run. Each mode starts from a fresh data directory with
/// the accounts open.
struct CommandBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commands", abstract: "Group commit of account commands vs one transaction per command.")

    @Option(help: "Concurrent tasks (each its own account).") var tasks = 64
    @Option(help: "Adds each task makes, one command each.") var adds = 20
    @Option(help: "Rounds (the modes take turns; the median round is reported).") var rounds = 5
    @Flag(help: "Small sizes: a smoke test of the harness, not a measurement.") var quick = false
    @Option(help: "Where to write scratch files (default: a new temporary directory).") var scratch: String?

    /// What one mode's run measured.
    struct Figures {
        var seconds = 0.0
        var commands = 0
        var transactions = 0
        /// Each command's time from call to return, sorted.
        var latencies: [Double] = []
        var commandsPerSecond: Double { Double(commands) / seconds }
        var meanBatch: Double { Double(commands) / Double(max(transactions, 1)) }
        func latency(_ quantile: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * quantile))]
        }
    }

    enum Mode: CaseIterable {
        case sequential, batched, batchedWithKeys
    }

    func run() async throws {
        let root = scratch ?? FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-commands-\(getpid())").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (tasks, adds, rounds) = quick ? (8, 5, 1) : (self.tasks, self.adds, self.rounds)

        var results: [Mode: [Figures]] = [:]
        for round in 0..<rounds {
            for mode in Mode.allCases {
                let directory = root + "/\(mode)-\(round)"
                note("round \(round + 1) of \(rounds): \(mode), \(tasks * adds) commands")
                results[mode, default: []].append(try await Self.measure(mode, tasks: tasks, adds: adds, directory: directory))
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
        let median = results.mapValues { $0.sorted { $0.commandsPerSecond < $1.commandsPerSecond }[$0.count / 2] }
        let baseline = median[.sequential]!
        var table = Table(columns: ["benchmark", "Reel", "baseline", "ratio", "target", "met"])
        for (mode, name) in [(Mode.batched, "\(tasks) tasks, group commit"), (.batchedWithKeys, "\(tasks) tasks, group commit, idempotency keys")] {
            let figures = median[mode]!
            let ratio = figures.commandsPerSecond / baseline.commandsPerSecond
            table.row([
                "\(name) (commands/s)", fixed(figures.commandsPerSecond, 0),
                fixed(baseline.commandsPerSecond, 0), fixed(ratio, 1) + "×", "> baseline", ratio > 1 ? "yes" : "NO",
            ])
            table.row(["   mean batch (commands per transaction)", fixed(figures.meanBatch, 1), fixed(baseline.meanBatch, 1), "", "(reported)", ""])
            table.row([
                "   per command p50 / p99 (ms)", fixed(figures.latency(0.5) * 1e3, 1) + " / " + fixed(figures.latency(0.99) * 1e3, 1),
                fixed(baseline.latency(0.5) * 1e3, 1) + " / " + fixed(baseline.latency(0.99) * 1e3, 1), "", "(reported)", "",
            ])
        }
        print()
        print(quick ? "reel-bench commands --quick (smoke test; sizes too small to mean anything)"
            : "reel-bench commands: \(ProcessInfo.processInfo.activeProcessorCount) cores; \(tasks) tasks × \(adds) adds, one command each, fsync'd; "
                + "baseline = the same commands one `change` at a time (a transaction each); median of \(rounds) rounds by commands/s")
        table.print()
    }

    /// Runs `tasks × adds` add commands in a fresh data directory the way `mode` says.
    static func measure(_ mode: Mode, tasks: Int, adds: Int, directory: String) async throws -> Figures {
        let transactions = Atomic<Int>(0)
        let app = Application(.init(dataDirectory: directory, offline: true, commitObserver: { _ in transactions.add(1, ordering: .relaxed) }))
        let handles = try (0..<tasks).map { try AccountHandle("bench-\($0)") }
        func key(_ task: Int, _ add: Int) throws -> MediaKey { try MediaKey(.movie, Int64(1 + task * adds + add)) }
        // The ledger and the accounts made (not timed): opening an account makes its key, a
        // durable write of the key store of its own; what is timed is adding to open accounts.
        for handle in handles { _ = try app.change(.rename(try ProfileName("Bench")), for: handle) }
        let started = ContinuousClock.now
        var latencies: [Double] = []
        switch mode {
        case .sequential:
            for add in 0..<adds {
                for task in 0..<tasks {
                    let began = ContinuousClock.now
                    _ = try app.change(.addFavorites([try key(task, add)]), for: handles[task])
                    latencies.append(seconds(since: began))
                }
            }
        case .batched, .batchedWithKeys:
            latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var own: [Double] = []
                        for add in 0..<adds {
                            let began = ContinuousClock.now
                            let requestKey = mode == .batchedWithKeys ? "bench-\(task)-\(add)" : nil
                            _ = try await app.change(.addFavorites([try key(task, add)]), for: handles[task], requestKey: requestKey)
                            own.append(seconds(since: began))
                        }
                        return own
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        let elapsed = seconds(since: started)
        // Every command is in: each account holds its adds.
        for (task, handle) in handles.enumerated() where try app.account(handle).state.saved.count != adds {
            throw BenchmarkError("\(mode): the account of task \(task) holds \(try app.account(handle).state.saved.count) titles, not \(adds)")
        }
        guard try app.verifyLedger().isIntact else { throw BenchmarkError("\(mode): the ledger does not verify") }
        await app.close()
        let committed = mode == .sequential ? tasks * adds : transactions.load(ordering: .relaxed)
        return Figures(seconds: elapsed, commands: tasks * adds, transactions: committed, latencies: latencies.sorted())
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    private func fixed(_ v: Double, _ d: Int) -> String { v.isFinite ? String(format: "%.\(d)f", v) : "–" }
    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}
