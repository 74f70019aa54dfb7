import ArgumentParser
import EventLog
import Foundation
import PostgresStore
import ReelTestSupport
import Synchronization

/// How long writes stop when a pair's primary is lost (issue 39): a pg_auto_failover pair (a
/// monitor, a primary, a synchronous standby on loopback, fsync on), a store opened by the URL
/// naming both, one append after another from a thread; the primary's machine is killed (`-9`,
/// its keeper and every server process) and the time from the kill to the first acknowledged
/// append begun after it is measured. A new pair each run; the median of the runs.
struct FailoverBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "failover", abstract: "Benchmark failover: from killing a pair's primary to the first acknowledged write on the new primary.")

    @Option(help: "Runs (a new pair each).") var runs = 5
    @Flag(help: "One run: a smoke test of the harness, not a measurement.") var quick = false

    func run() async throws {
        let runs = quick ? 1 : self.runs
        var times: [Double] = []
        for run in 1...runs {
            let pair = try await FailoverPair.started("reel-bench-failover", fsync: true)
            defer { pair.stop() }
            let location = try PostgresLocation(pair.url())
            _ = try await PostgresMigrator.migrate(location)
            let store = try PostgresEventStore.open(location, directory: temporaryDirectory("reel-bench-failover"), keyring: temporaryDirectory("keyring"))
            let killed = Mutex<DispatchTime?>(nil)
            let resumed = Mutex<DispatchTime?>(nil)
            let appended = Mutex(0)
            let writer = Thread {
                let stream = try! StreamID("account-1")
                while resumed.withLock({ $0 == nil }) {
                    let started = DispatchTime.now()
                    guard (try? store.append([try! StoreWorkloads.event()], to: stream, expected: .any)) != nil else { continue }
                    appended.withLock { $0 += 1 }
                    if let kill = killed.withLock({ $0 }), started > kill { resumed.withLock { $0 = DispatchTime.now() } }
                }
            }
            writer.start()
            while appended.withLock({ $0 }) < 100 { try await Task.sleep(for: .milliseconds(20)) }
            guard let primary = try await offThread({ try pair.primary() }) else { throw BenchmarkError("the pair has no primary") }
            // The clock starts once every process of the node has been sent SIGKILL: a write begun
            // before that may still have reached it.
            pair.kill(primary)
            killed.withLock { $0 = DispatchTime.now() }
            let deadline = ContinuousClock.now + .seconds(120)
            while resumed.withLock({ $0 }) == nil {
                guard ContinuousClock.now < deadline else { throw BenchmarkError("no write was acknowledged within 120 s of the kill") }
                try await Task.sleep(for: .milliseconds(20))
            }
            let seconds = Double(resumed.withLock { $0 }!.uptimeNanoseconds - killed.withLock { $0 }!.uptimeNanoseconds) / 1e9
            times.append(seconds)
            try? FileHandle.standardError.write(contentsOf: Data("… run \(run): writes resumed \(String(format: "%.2f", seconds)) s after the kill\n".utf8))
        }
        let sorted = times.sorted()
        print(String(format: "failover (kill -9 of the primary's machine → first acknowledged write on the new primary): median %.2f s over %d runs (%@); target ≤ 10 s: %@",
                     sorted[sorted.count / 2], runs, times.map { String(format: "%.2f", $0) }.joined(separator: ", "), sorted[sorted.count / 2] <= 10 ? "yes" : "NO"))
        print("pg_auto_failover with the monitor's checks every second, unhealthy after 2 s, 3 s for a lost primary to demote itself (see the handbook's PostgreSQL page)")
    }
}
