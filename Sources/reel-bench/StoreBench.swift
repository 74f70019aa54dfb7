import LMDBStore
import ArgumentParser
import EventLog
import Foundation
import NIOPosix
import PostgresNIO
import PostgresStore
import ReelTestSupport

/// The PostgreSQL store's benchmark (issue 24), side by side in one run against one PostgreSQL it
/// starts itself (fsync on: commits are durable), with the LMDB store's figures on the same
/// workloads as the reference.
struct StoreBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "PostgreSQL store vs its raw driver baseline and vs the LMDB store (build with -c release).")

    @Option(help: "Events for the batched appends (1,000 per transaction).") var batchedEvents = 100_000
    @Option(help: "Durable single-event appends to time.") var singles = 1_000
    @Option(help: "Appends per appender in the concurrent runs (64 appenders).") var perAppender = 40
    @Flag(help: "Small sizes: a smoke test of the harness, not a measurement.") var quick = false

    static let payloadSize = 200

    func run() async throws {
        let batchedEvents = quick ? 5_000 : self.batchedEvents
        let singles = quick ? 50 : self.singles
        let perAppender = quick ? 5 : self.perAppender
        note("starting PostgreSQL (fsync on)")
        let server = try await PostgresServer.started("reel-bench-store", fsync: true, settings: ["wal_recycle": "off", "max_wal_size": "4GB"])
        defer { server.stop() }
        let scratch = temporaryDirectory("reel-bench-store")
        var table = Table(columns: ["benchmark", "PostgreSQL", "baseline", "ratio", "target", "met", "LMDB (reference)"])

        func postgres(_ name: String, connections: Int = 8) async throws -> PostgresEventStore {
            let database = try await server.createDatabase(name)
            let location = try PostgresLocation(server.url(database: database))
            _ = try await PostgresMigrator.migrate(location)
            return try PostgresEventStore.open(location, directory: scratch, connections: connections)
        }
        func lmdb(_ name: String) throws -> EventLog { try EventLog.open(at: scratch + "/" + name) }
        func figure(_ value: Double, decimals: Int = 0) -> String {
            decimals > 0 ? String(format: "%.\(decimals)f", value) : Int(value.rounded()).formatted(.number.grouping(.automatic))
        }

        // 1. Batched sealed appends vs inserting the same rows through the same driver.
        note("batched appends: \(batchedEvents) events, 1,000 per transaction")
        let raw = try await RawInserts.run(server: server, database: try await server.createDatabase("raw"), events: batchedEvents)
        let copied = try await RawInserts.run(server: server, database: try await server.createDatabase("raw_copy"), events: batchedEvents, method: .copy)
        let batched = try StoreWorkloads.batched(try await postgres("batched"), events: batchedEvents)
        let lmdbBatched = try StoreWorkloads.batched(try lmdb("batched"), events: batchedEvents)
        table.row([
            "1. batched sealed appends (events/s)", figure(batched), figure(raw) + " raw INSERT", String(format: "%.0f%%", batched / raw * 100),
            "≥ 50% of raw", batched / raw >= 0.5 ? "yes" : "NO", figure(lmdbBatched),
        ])
        table.row([
            "   the same against COPY", figure(batched), figure(copied) + " raw COPY", String(format: "%.2f×", batched / copied),
            "≥ 0.7×", batched / copied >= 0.7 ? "yes" : "NO", "",
        ])

        // 2. Durable single appends.
        note("single durable appends: \(singles)")
        let single = try StoreWorkloads.singles(try await postgres("singles"), count: singles)
        let lmdbSingle = try StoreWorkloads.singles(try lmdb("singles"), count: singles)
        table.row(["2. single append p50 (ms)", figure(single.p50 / 1_000, decimals: 3), "", "", "(reported)", "", figure(lmdbSingle.p50 / 1_000, decimals: 3)])
        table.row(["   single append p99 (ms)", figure(single.p99 / 1_000, decimals: 3), "", "", "(reported)", "", figure(lmdbSingle.p99 / 1_000, decimals: 3)])

        // 3. 64 concurrent appenders: group commit vs each append committing alone.
        note("64 appenders × \(perAppender): group commit, then single-insert commits")
        let grouped = try await StoreWorkloads.grouped(try await postgres("grouped"), appenders: 64, each: perAppender)
        let alone = try StoreWorkloads.alone(try await postgres("alone", connections: 64), appenders: 64, each: perAppender)
        let lmdbGrouped = try await StoreWorkloads.grouped(try lmdb("grouped"), appenders: 64, each: perAppender)
        table.row([
            "3. 64 appenders, group commit (events/s)", figure(grouped), figure(alone) + " alone", String(format: "%.1f×", grouped / alone), "≥ 5×",
            grouped / alone >= 5 ? "yes" : "NO", figure(lmdbGrouped),
        ])

        // 3b. Two shards (two databases of the one server, each with its store and group
        // committer) against one: the 64 appenders split by the streams' placement.
        note("two shards: 64 appenders × \(perAppender), placed by the shard map's hash")
        let shards = [try await postgres("shard-a"), try await postgres("shard-b")]
        let split = try await StoreWorkloads.groupedOverShards(shards, appenders: 64, each: perAppender)
        table.row([
            "   same over 2 shards (events/s)", figure(split), figure(grouped) + " 1 shard", String(format: "%.2f×", split / grouped), "(reported)",
            "", "",
        ])

        // 4. Verify and replay the batched ledger.
        note("verify and replay \(batchedEvents) events")
        let verifying = try await postgresReopened(server, "batched", scratch)
        let verify = try StoreWorkloads.verify(verifying)
        let replay = try StoreWorkloads.replay(verifying)
        let lmdbVerify = try StoreWorkloads.verify(try lmdb("batched"))
        let lmdbReplay = try StoreWorkloads.replay(try lmdb("batched"))
        table.row(["4. verify (events/s)", figure(verify), "", "", "(reported)", "", figure(lmdbVerify)])
        table.row(["   replay, 2 lanes (events/s)", figure(replay), "", "", "(reported)", "", figure(lmdbReplay)])
        table.print()
        print("PostgreSQL 15 on this machine (\(ProcessInfo.processInfo.activeProcessorCount) cores), fsync on, synchronous_commit on; one server for every run.")
    }

    private func postgresReopened(_ server: PostgresServer, _ database: String, _ scratch: String) async throws -> PostgresEventStore {
        try PostgresEventStore.open(try PostgresLocation(server.url(database: database)), directory: scratch)
    }

    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}

