import EndToEndSupport
import Foundation
import Processes
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Many processes appending to one PostgreSQL store at once (`reel-bench worker --store`), some
/// killed with -9 and the server itself crashed and restarted mid-run: nothing acknowledged is
/// lost, positions run 1…N without a gap or a duplicate, each acknowledged event is at the
/// position it was acknowledged at, the chain verifies, and the survivors recover by themselves
/// (their failed appends, retried with the same event, are stored once).
@Suite struct PostgresMultiProcessTests {
    static let started = Task { try await PostgresServer.started("PostgresMultiProcessTests") }

    struct Worker {
        let process: RunningChild
        let acks: String
        var errors: String { (try? String(contentsOfFile: acks + ".err", encoding: .utf8)) ?? "" }
        var acknowledged: [(position: UInt64, id: String)] {
            let text = (try? String(contentsOfFile: acks, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ")
                guard parts.count == 2, let position = UInt64(parts[0]) else { return nil }
                return (position, String(parts[1]))
            }
        }
    }

    /// The keyring every process of these tests uses, as the hosts of one store share one.
    static var keyring: String { Harness.keyring }

    static func start(_ store: String, stream: String, count: Int, concurrency: Int) throws -> Worker {
        let acks = temporaryDirectory("acks") + "/acks"
        try #require(FileManager.default.createFile(atPath: acks, contents: nil))
        try #require(FileManager.default.createFile(atPath: acks + ".err", contents: nil))
        // Each worker stands for a host of its own (a data directory of its own); hosts of one store
        // share its keyring.
        let child = try ChildProcess.spawn(
            [
                Harness.binaries + "/reel-bench", "worker", "--store", store, "--data-dir", temporaryDirectory("worker"), "--stream", stream,
                "--count", "\(count)", "--concurrency", "\(concurrency)", "--retry",
            ],
            environment: ProcessInfo.processInfo.environment.merging(["REEL_KEYRING": keyring]) { $1 }, standardOutput: .write(acks),
            standardError: .write(acks + ".err"))
        return Worker(process: RunningChild(child), acks: acks)
    }

    /// Waits for `condition`; on timeout the error says where each of `workers` stands (how many
    /// acknowledgements, running or not, its last error lines), so a stall can be told from a slow run.
    /// Unless `exiting` (the condition is that they end), a worker that ended fails the wait at
    /// once: what it was to do will never come.
    static func waitUntil(_ what: String, seconds: Double = 120, workers: [Worker] = [], exiting: Bool = false, _ condition: () -> Bool) async throws {
        var budget = WaitBudget(seconds: seconds)
        while !condition() {
            guard !budget.isSpent, exiting || workers.allSatisfy(\.process.isRunning) else {
                let states = workers.map { worker in
                    let errors = worker.errors.split(separator: "\n")
                    // A worker that crashed ends its stderr with a backtrace: the lines that say why
                    // (a fatal error's message, the signal), and the crashed thread's first frames.
                    let crash = errors.firstIndex { $0.contains("Fatal error") || $0.contains("*** Signal") || $0.contains("*** Program crashed") }
                    let crashedThread = errors.firstIndex { $0.hasPrefix("Thread ") && $0.contains(" crashed:") }
                    let why = crash.map { at in
                        (errors[at...].prefix(3) + (crashedThread.map { errors[$0...].prefix(16) } ?? [])).joined(separator: "\n")
                    }
                    return "\(worker.process.isRunning ? "running" : "exited"), \(worker.acknowledged.count) acknowledged, \(errors.count) errors"
                        + (why.map { ", crashed: \($0)" } ?? errors.last.map { ", last: \($0)" } ?? "")
                }
                throw Timeout(what: what, states: states)
            }
            try await budget.pause(.milliseconds(25))
        }
    }

    struct Timeout: Error, CustomStringConvertible {
        let what: String
        let states: [String]
        var description: String { "timed out waiting for \(what)" + states.map { "; " + $0 }.joined() }
    }

    @Test func appendersKilledAndAServerCrashLoseNothingAcknowledged() async throws {
        let server = try await Self.started.value
        let database = try await server.createDatabase("multi_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let store = server.url(database: database)
        let migrated = try await Harness.reel(["store", "migrate", "--store", store])
        #expect(migrated.status == 0, "\(migrated.stderr)")

        // Four appenders that go on until stopped: two will be killed with -9 mid-append, two
        // live through everything and are stopped at the end.
        let survivors = try ["ann", "ben"].map { try Self.start(store, stream: $0, count: 10_000_000, concurrency: 8) }
        let victims = try ["cy", "dee"].map { try Self.start(store, stream: $0, count: 10_000_000, concurrency: 16) }
        // However the test ends, no appender outlives it (one left appending loads every test after).
        defer { for worker in survivors + victims { worker.process.signal(SIGKILL) } }
        try await Self.waitUntil("the first acknowledgements", workers: survivors + victims) { (survivors + victims).allSatisfy { $0.acknowledged.count >= 20 } }

        // The server crashes (every connection cut, no checkpoint) and comes back under all four.
        try await server.crashAndRestart()
        let before = (survivors + victims).map(\.acknowledged.count)
        try await Self.waitUntil("all four appending again after the restart", workers: survivors + victims) {
            zip(survivors + victims, before).allSatisfy { $0.acknowledged.count >= $1 + 30 }
        }
        for victim in victims {
            victim.process.signal(SIGKILL)
            #expect(victim.process.wait() == .signalled(SIGKILL))
        }
        let afterKills = survivors.map(\.acknowledged.count)
        try await Self.waitUntil("the survivors appending after the kills", workers: survivors) {
            zip(survivors, afterKills).allSatisfy { $0.acknowledged.count >= $1 + 30 }
        }
        for survivor in survivors {
            survivor.process.signal(SIGTERM)
            survivor.process.wait()
            // What failed while the server was down was said in one line each, and retried.
            #expect(!survivor.errors.isEmpty, "the crash went unnoticed")
            for line in survivor.errors.split(separator: "\n") { #expect(line.hasPrefix("error: "), "\(line)") }
        }

        let acknowledged = (survivors + victims).flatMap(\.acknowledged)
        #expect(Set(acknowledged.map(\.position)).count == acknowledged.count, "no position acknowledged twice")
        #expect(Set(acknowledged.map(\.id)).count == acknowledged.count, "no event acknowledged twice")
        let stored = try await server.psql("SELECT event_id, position FROM reel_events", database: database).split(separator: "\n").reduce(
            into: [String: UInt64]()
        ) { found, line in
            let parts = line.split(separator: "|")
            if parts.count == 2 { found[String(parts[0])] = UInt64(parts[1]) }
        }
        let lost = acknowledged.filter { stored[$0.id] != $0.position }
        #expect(lost.isEmpty, "\(lost.count) acknowledged events are not where they were acknowledged: \(lost.prefix(5))")
        let shape = try await server.psql("SELECT count(*), min(position), max(position) FROM reel_events", database: database)
        #expect(shape == "\(stored.count)|1|\(stored.count)", "positions run 1…N without a gap: \(shape)")
        let streams = try await server.psql(
            "SELECT count(*) FROM reel_streams s WHERE s.version <> (SELECT count(*) FROM reel_events e WHERE e.stream = s.stream)", database: database)
        #expect(streams == "0", "each stream's version is its number of events")

        let verified = try await Harness.reel(["audit", "verify", "--json", "--store", store, "--data-dir", temporaryDirectory("verify")], environment: ["REEL_KEYRING": Self.keyring])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(try Harness.json(verified.stdout)["ok"] as? Bool == true && (try Harness.json(verified.stdout)["events"] as? Int) == stored.count)
        // The store takes appends after it all.
        let after = try Self.start(store, stream: "cy", count: 5, concurrency: 1)
        try await Self.waitUntil("an append after the crash", workers: [after], exiting: true) { !after.process.isRunning }
        #expect(after.process.termination == .exited(0) && after.acknowledged.map(\.position) == Array(UInt64(stored.count + 1)...UInt64(stored.count + 5)), "\(after.errors)")
    }
}
