import Stores
import LMDBStore
import ArgumentParser
import EventLog
import Foundation
import Ledger
import Reel

#if canImport(Glibc)
import Glibc
#endif

/// The race the key store's life cycle must survive (issue 17, item 1): accounts deleted one
/// after another (each a key destroyed and the key store replaced) while other processes open
/// the key store and make keys for new accounts (`reel fav add` for new handles) and read it
/// (`reel accounts`). Afterwards, checked by fresh processes: every account whose `fav add`
/// exited 0 is open with its title, every deleted account is deleted, the key store holds
/// exactly one live key per open account and one destroyed key per deletion, and the chain and
/// the projections verify. Prints the figures; exits 1 if any key was lost.
struct KeysRace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys-race",
        abstract: "Delete accounts while other processes open the key store and make new keys; count keys lost.")

    @Option(help: "Accounts to delete.") var deletes = 1_000
    @Option(help: "Processes making new accounts at once (each runs `reel fav add` in a loop).") var adders = 4
    @Option(help: "Processes reading at once (each runs `reel accounts` in a loop).") var readers = 1
    @Flag(help: "Delete with a `reel account delete` process each (slower), not in this process.") var deleteProcesses = false
    @Option(help: "The data directory (default: a new temporary one, removed afterwards).") var dataDir: String?
    @Flag(help: "One JSON object instead of the text report.") var json = false
    @Flag(help: .hidden) var countKeys = false

    func run() async throws {
        if countKeys, let dataDir {
            let (live, destroyed) = try EventLog.open(at: dataDir).keyCounts()
            print("\(live) \(destroyed)")
            return
        }
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let reel = bin + "/reel"
        let dir = dataDir ?? NSTemporaryDirectory() + "reel-keys-race-\(getpid())"
        defer { if dataDir == nil { try? FileManager.default.removeItem(atPath: dir) } }
        var env = ProcessInfo.processInfo.environment
        for name in ["TMDB_API_TOKEN", "TMDB_API_KEY", "REEL_USER", "REEL_FAILPOINT"] { env[name] = nil }
        env["REEL_DATA_DIR"] = dir
        env["REEL_OFFLINE"] = "1"
        env["XDG_CONFIG_HOME"] = dir + "/config"

        // The accounts to delete, made here (one fsync'd transaction each).
        let victims = try (1...max(1, deletes)).map { try AccountHandle("v\($0)") }
        do {
            let service = try AccountService.open(at: dir)
            for handle in victims { _ = try service.execute(.addFavorites([try MediaKey(.movie, 603)]), for: handle) }
        }

        let started = ContinuousClock.now
        let stop = StopSignal()
        let tally = Tally()
        let environment = env
        let others = Thread.detachAll(count: adders + readers) { worker in
            var made = 0
            while !stop.isSet {
                if worker < adders {
                    made += 1
                    let handle = "n\(worker)-\(made)"
                    let (status, error) = Spawn.statusAndError([reel, "fav", "add", "movie", "603", "--user", handle], environment: environment)
                    tally.record(add: handle, status: status, error: error)
                } else {
                    let (status, error) = Spawn.statusAndError([reel, "accounts"], environment: environment)
                    tally.record(read: status, error: error)
                }
            }
        }
        var deleteFailures = 0
        if deleteProcesses {
            for handle in victims {
                let status = Spawn.status([reel, "account", "delete", "--yes", "--user", handle.value], environment: environment)
                if status != 0 { deleteFailures += 1 }
            }
        } else {
            let service = try AccountService.open(at: dir)
            for handle in victims {
                do { _ = try service.execute(.deleteAccount, for: handle) } catch { deleteFailures += 1 }
            }
        }
        stop.set()
        for thread in others { thread.join() }
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18

        // The checks, each by a fresh process.
        let accounts = Spawn.output([reel, "accounts", "--json"], environment: env)
        var open: [String: Int] = [:], deleted = 0
        if accounts.status == 0, let document = try? JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [String: Any] {
            for account in document["accounts"] as? [[String: Any]] ?? [] {
                if account["status"] as? String == "open", let handle = account["user"] as? String {
                    open[handle] = account["saved"] as? Int ?? 0
                } else if account["status"] as? String == "deleted" {
                    deleted += 1
                }
            }
        }
        let acknowledged = tally.acknowledged
        let lost = acknowledged.filter { open[$0] != 1 }
        let survivingVictims = victims.filter { open[$0.value] != nil }.count
        let keys = Spawn.output([CommandLine.arguments[0], "keys-race", "--count-keys", "--data-dir", dir], environment: env)
        let counts = keys.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let live = counts.first ?? -1, destroyed = counts.last ?? -1
        let verify = Spawn.status([reel, "audit", "verify"], environment: env)
        let check = Spawn.status([reel, "projections", "rebuild", "--check"], environment: env)
        let keysLost = lost.count + max(0, open.count - live)
        let ok =
            accounts.status == 0 && keysLost == 0 && survivingVictims == 0 && deleteFailures == 0 && live == open.count
            && destroyed == victims.count && deleted == victims.count && verify == 0 && check == 0 && tally.failures.isEmpty

        if json {
            let document: [String: Any] = [
                "deletes": victims.count, "deleteFailures": deleteFailures, "seconds": seconds,
                "opens": tally.adds + tally.reads, "adds": tally.adds, "acknowledged": acknowledged.count, "reads": tally.reads,
                "failures": tally.failures.map { ["command": $0.0, "status": Int($0.1), "stderr": $0.2] },
                "keysLost": keysLost, "liveKeys": live, "destroyedKeys": destroyed, "openAccounts": open.count,
                "deletedAccounts": deleted, "auditVerify": Int(verify), "rebuildCheck": Int(check), "ok": ok,
            ]
            let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("reel-bench keys-race: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(adders) adder and \(readers) reader processes in loops")
            print("  deletions              \(victims.count) in \(String(format: "%.1f", seconds)) s (\(deleteProcesses ? "a process each" : "in one process")), \(deleteFailures) failed")
            print("  concurrent opens       \(tally.adds + tally.reads) processes: \(tally.adds) `fav add` of new accounts (\(acknowledged.count) exited 0), \(tally.reads) `accounts`")
            print("  failed commands        \(tally.failures.count)\(tally.failures.prefix(3).map { " [\($0.0): exit \($0.1): \($0.2)]" }.joined())")
            print("  keys lost              \(keysLost)")
            print("  key store              \(live) live (open accounts: \(open.count)), \(destroyed) destroyed (deleted accounts: \(deleted))")
            print("  audit verify           \(verify == 0 ? "intact" : "exit \(verify)"); projections rebuild --check: \(check == 0 ? "no drift" : "exit \(check)")")
            print(ok ? "  result                 held" : "  result                 FAILED")
        }
        if !ok { throw ExitCode(1) }
    }
}

/// Set once, read by loops that stop when it is.
private final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// What the loops did.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var adds = 0, reads = 0
    private var acked: [String] = []
    private var failed: [(String, Int32, String)] = []

    func record(add handle: String, status: Int32, error: String) {
        lock.withLock {
            adds += 1
            if status == 0 { acked.append(handle) } else { failed.append(("fav add --user \(handle)", status, error)) }
        }
    }

    func record(read status: Int32, error: String) {
        lock.withLock {
            reads += 1
            if status != 0 { failed.append(("accounts", status, error)) }
        }
    }

    var acknowledged: [String] { lock.withLock { acked } }
    var failures: [(String, Int32, String)] { lock.withLock { failed } }
}

extension Thread {
    /// Starts `count` threads running `body(index)`; join each with `join()`.
    fileprivate static func detachAll(count: Int, _ body: @escaping @Sendable (Int) -> Void) -> [JoinableThread] {
        (0..<count).map { index in JoinableThread { body(index) } }
    }
}

/// A thread that can be waited for.
private final class JoinableThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    init(_ body: @escaping @Sendable () -> Void) {
        let done = self.done
        Thread.detachNewThread {
            body()
            done.signal()
        }
    }
    func join() { done.wait() }
}
