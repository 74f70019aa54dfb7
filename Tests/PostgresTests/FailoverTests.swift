import EndToEndSupport
import Foundation
import NIOHTTP1
import ReelTestSupport
import Synchronization
import Testing

/// Losing the primary of a pair (pg_auto_failover: a monitor, a primary, a synchronous standby on
/// loopback) while `reel serve` and four `reel` processes append: every acknowledged append is
/// there exactly once afterwards, the log is gapless and verifies, the projections rebuild to what
/// they hold, and writes resume on the new primary by themselves.
@Suite(.serialized) struct FailoverTests {
    /// One appender's record: the ids it was told were saved, and how each failure read.
    final class Appends: Sendable {
        /// Each acknowledged id, when its request started and when it was acknowledged.
        let acknowledged = Mutex<[(id: Int, started: ContinuousClock.Instant, at: ContinuousClock.Instant)]>([])
        let failures = Mutex<[String]>([])
        var count: Int { acknowledged.withLock { $0.count } }
        /// When the requests started after `instant` were acknowledged.
        func after(_ instant: ContinuousClock.Instant) -> [ContinuousClock.Instant] {
            acknowledged.withLock { $0.filter { $0.started > instant }.map(\.at) }
        }
    }

    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    @Test func killingThePrimaryUnderLoadLosesNoAcknowledgedAppendAndWritesResume() async throws {
        let pair = try await FailoverPair.started()
        defer { pair.stop() }
        let tmdb = try await offThread { try FakeTMDbProcess(["--synthetic-movies", "20000"]) }
        var home = Home(server: tmdb)
        home.environment["REEL_STORE"] = pair.url()
        let fixed = home
        let migrated = try await fixed.reel(["store", "migrate"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        // The pair as an operator sees it: a primary with its synchronous standby streaming.
        let before = try await fixed.reel(["store", "status", "--json"])
        let valid = try Harness.validate(before.stdout, against: "cli/store-status.schema.json")
        #expect(before.status == 0 && valid.status == 0, "\(before) \(valid.stderr)")
        let status = try Harness.json(before.stdout)
        #expect(status["synchronousStandbyAttached"] as? Bool == true, "\(before.stdout)")
        #expect((status["servers"] as? [[String: Any]])?.compactMap { $0["role"] as? String } == ["primary", "standby"], "\(before.stdout)")
        let text = try await fixed.reel(["store", "status"])
        #expect(text.stdout.contains("primary; synchronous_commit on; standby") && text.stdout.contains("synchronous"), "\(text.stdout)")
        // pg_auto_failover turns the standby's feedback on, which slows every commit: the status
        // says so (once the standby has sent its first feedback), and says nothing once it is
        // turned off on each node as the handbook says.
        func feedback() async throws -> (json: [Bool]?, line: Bool) {
            let json = try Harness.json(try await fixed.reel(["store", "status", "--json"]).stdout)
            let standbys = (json["servers"] as? [[String: Any]])?.first { $0["role"] as? String == "primary" }?["standbys"] as? [[String: Any]]
            let text = try await fixed.reel(["store", "status"]).stdout
            return (standbys?.compactMap { $0["feedback"] as? Bool }, text.contains("sends feedback (hot_standby_feedback on)"))
        }
        try await waitFor("the status to name the standby's feedback") { (try? await feedback()).map { $0.json == [true] && $0.line } == true }
        for node in pair.nodes {
            _ = try await pair.psql(node, "ALTER SYSTEM SET hot_standby_feedback = off")
            _ = try await pair.psql(node, "SELECT pg_reload_conf()")
        }
        try await waitFor("the status to find no feedback") { (try? await feedback()).map { $0.json == [false] && !$0.line } == true }
        let service = try await ServiceProcess.start(home)
        let token = try await service.token(for: "web")
        let ready = try await service.request(.GET, "/ready").json()["store"] as? [String: Any]
        #expect(ready?["synchronousStandbyAttached"] as? Bool == true, "\(String(describing: ready))")
        #expect((ready?["servers"] as? [[String: Any]])?.compactMap { $0["role"] as? String } == ["primary", "standby"], "\(String(describing: ready))")

        let stop = Flag()
        let appenders = (0..<5).map { _ in Appends() }
        let loops = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        var next = 90_000_001 + index * 4_000
                        while !stop.isSet {
                            let id = next, started = ContinuousClock.now
                            next += 1
                            let out = try await fixed.reel(["fav", "add", "movie", String(id), "--user", "cli\(index)"])
                            if out.status == 0 {
                                appenders[index].acknowledged.withLock { $0.append((id, started, .now)) }
                            } else {
                                appenders[index].failures.withLock { $0.append("exit \(out.status): \(out.stderr)") }
                            }
                        }
                    }
                }
                group.addTask {
                    var next = 90_016_001
                    while !stop.isSet {
                        let id = next, started = ContinuousClock.now
                        next += 1
                        do {
                            let answer = try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": id])
                            if answer.status == 201 {
                                appenders[4].acknowledged.withLock { $0.append((id, started, .now)) }
                            } else {
                                appenders[4].failures.withLock { $0.append("HTTP \(answer.status): \(answer.text)") }
                            }
                        } catch {
                            appenders[4].failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Load first, then the loss of the primary's machine.
        try await waitFor("every appender to be acknowledged three times", seconds: 60) { appenders.allSatisfy { $0.count >= 3 } }
        let lost = try #require(try await offThread { try pair.primary() })
        pair.kill(lost)
        // Counted from when every process of the node has been sent SIGKILL.
        let killed = ContinuousClock.now
        do {
            try await waitFor("every appender to be acknowledged twice after the kill", seconds: 90) {
                appenders.allSatisfy { $0.after(killed).count >= 2 }
            }
        } catch {
            stop.set()
            let failures = appenders.flatMap { $0.failures.withLock { $0.suffix(2) } }.joined(separator: "\n")
            Issue.record("\(error)\nthe monitor's events:\n\(pair.events())\nthe last failures:\n\(failures)")
            throw error
        }
        stop.set()
        try await loops.value
        let resumed = appenders.compactMap { $0.after(killed).min() }.min()!
        print("failover: the first write begun after the primary was killed was acknowledged \(resumed - killed) after the kill")
        #expect(resumed - killed < .seconds(30), "writes resumed \(resumed - killed) after the kill")
        let survivor = try #require(try await offThread { try pair.primary() })
        #expect(survivor != lost, "the standby took over")
        // Now one server answers, as the primary, with no standby: said in words.
        let after = try await fixed.reel(["store", "status"])
        #expect(after.status == 0, "\(after)")
        #expect(after.stdout.contains("\(lost.port): unreachable (") && after.stdout.contains("\(survivor.port): primary"), "\(after.stdout)")
        #expect(after.stdout.contains("no synchronous standby is attached"), "\(after.stdout)")

        // Each failure was one line in words, never a crash.
        for appender in appenders {
            for failure in appender.failures.withLock({ $0 }) {
                #expect(
                    failure.hasPrefix("exit 69") || failure.hasPrefix("exit 75") || failure.hasPrefix("HTTP 503"),
                    "a failure during the failover: \(failure)")
                #expect(failure.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1, "\(failure)")
            }
        }
        // Every acknowledged append is there, once.
        for (index, appender) in appenders.enumerated() {
            let user = index < 4 ? "cli\(index)" : "web"
            let history = try Harness.json(try await fixed.reel(["history", "--json", "--user", user]).stdout)
            let added = (history["events"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "favorite-added" }.compactMap {
                ($0["payload"] as? [String: Any])?["id"] as? Int
            }
            for (id, _, _) in appender.acknowledged.withLock({ $0 }) {
                #expect(added.filter { $0 == id }.count == 1, "\(user): acknowledged \(id) is there \(added.filter { $0 == id }.count) times")
            }
        }
        let verified = try await fixed.reel(["audit", "verify", "--json"])
        let report = try Harness.json(verified.stdout)
        #expect(verified.status == 0 && report["ok"] as? Bool == true, "\(verified.stdout) \(verified.stderr)")
        let rebuilt = try await fixed.reel(["projections", "rebuild", "--check"])
        #expect(rebuilt.status == 0, "\(rebuilt.stdout) \(rebuilt.stderr)")
        _ = try await service.stopped()
        tmdb.stop()
    }
}
