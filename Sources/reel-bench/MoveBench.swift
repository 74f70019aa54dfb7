import ArgumentParser
import Foundation
import Ledger
import Reel
import Stores
import ReelTestSupport

/// Moving accounts between shards (issue 24, `reel store move --all`), against one PostgreSQL it
/// starts itself (fsync on; old WAL not recycled, so destroyed keys can be purged): the same
/// accounts on two shards, the map grown to three, and the accounts whose home changed moved —
/// each shard purging once after its accounts left, beside purging after each account, in one run.
struct MoveBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moves", abstract: "Moving accounts to their home after a shard is added: purge once per shard vs once per account (build with -c release).")

    @Option(help: "Accounts on the two shards before the third is added (about a third move).") var accounts = 300
    @Flag(help: "Small sizes: a smoke test of the harness, not a measurement.") var quick = false

    func run() async throws {
        let accounts = quick ? 12 : self.accounts
        note("starting PostgreSQL (fsync on, wal_recycle off)")
        let server = try await PostgresServer.started("reel-bench-moves", fsync: true, settings: ["wal_recycle": "off"])
        defer { server.stop() }
        var table = Table(columns: ["benchmark", "purge once per shard", "purge per account", "ratio", "target", "met"])
        var results: [Bool: (moved: Int, events: UInt64, seconds: Double, purged: Int)] = [:]
        for purgeEach in [false, true] {
            let name = purgeEach ? "each" : "once"
            var urls: [String] = []
            for n in 1...3 { urls.append(server.url(database: try await server.createDatabase("moves_\(name)_\(n)"))) }
            let directory = temporaryDirectory("reel-bench-moves-\(name)")
            func map(_ count: Int) throws -> String {
                let path = directory + "/shards-\(count).json"
                let shards = urls.prefix(count).enumerated().map { #"{"name": "s\#($0.offset + 1)", "url": "\#($0.element)"}"# }
                try Data(#"{"format": "reel-shards/1", "shards": [\#(shards.joined(separator: ", "))]}"#.utf8).write(to: URL(fileURLWithPath: path))
                return path
            }
            note("\(accounts) accounts on two shards (\(name))")
            let before = Application(.init(dataDirectory: directory + "/data", store: try map(2), offline: true))
            _ = try await before.migrateShards()
            for n in 0..<accounts {
                let handle = try AccountHandle("bench-\(n)")
                _ = try before.change(.addFavorites([try MediaKey(.movie, 550), try MediaKey(.movie, 603), try MediaKey(.tv, 1399)]), for: handle)
            }
            await before.close()
            let grown = Application(.init(dataDirectory: directory + "/data", store: try map(3), offline: true))
            _ = try await grown.migrateShards()
            note("moving (purge \(purgeEach ? "per account" : "once per shard"))")
            let started = ContinuousClock.now
            let report = try grown.settleShards(purgeEach: purgeEach)
            let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18 + Double((ContinuousClock.now - started).components.seconds)
            let verified = try grown.verifyShards()
            guard verified.isIntact else { throw BenchmarkError("the shards do not verify after the moves") }
            results[purgeEach] = (report.moves.count, report.moves.reduce(0) { $0 + $1.events }, seconds, report.moves.filter(\.keyPurged).count)
            await grown.close()
        }
        let once = results[false]!, each = results[true]!
        func rate(_ r: (moved: Int, events: UInt64, seconds: Double, purged: Int)) -> Double { Double(r.moved) / r.seconds }
        table.row(["accounts moved (of \(accounts))", "\(once.moved)", "\(each.moved)", "", "(reported)", ""])
        table.row([
            "moves (accounts/s)", String(format: "%.1f", rate(once)), String(format: "%.1f", rate(each)), String(format: "%.2f×", rate(once) / rate(each)),
            "> per account", rate(once) > rate(each) ? "yes" : "NO",
        ])
        table.row([
            "   per account (ms)", String(format: "%.1f", once.seconds * 1e3 / Double(max(1, once.moved))),
            String(format: "%.1f", each.seconds * 1e3 / Double(max(1, each.moved))), "", "(reported)", "",
        ])
        table.row(["   keys purged from the files", "\(once.purged)", "\(each.purged)", "", "all", once.purged == once.moved && each.purged == each.moved ? "yes" : "NO"])
        print()
        print(quick ? "reel-bench moves --quick (smoke test; sizes too small to mean anything)"
            : "reel-bench moves: \(ProcessInfo.processInfo.activeProcessorCount) cores; \(accounts) accounts of 4 events on 2 shards of one PostgreSQL 15, a third added, `store move --all`; every shard verified after")
        table.print()
    }

    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}
