import EventLog
import Foundation
import PostgresStore

/// The store benchmark's workloads, the same code for any store behind the boundary.
enum StoreWorkloads {
    static let payload = Workloads.payload(StoreBench.payloadSize)

    static func event() throws -> ProposedEvent { try ProposedEvent(type: "favorite-added", payload: payload) }

    /// `events` in write transactions of 1,000, streams round-robin; events per second.
    static func batched(_ store: some EventStore, events: Int, streams: Int = 100) throws -> Double {
        let ids = try (0..<streams).map { try StreamID("account-\($0)") }
        let time = try Workloads.seconds {
            for batch in 0..<(events / 1_000) {
                let proposed = try (0..<1_000).map { _ in try event() }
                try store.write { w in _ = try w.appendEvents(proposed, to: ids[batch % streams], expected: .any) }
            }
        }
        return Double(events / 1_000 * 1_000) / time
    }

    /// `count` durable single-event appends one after another; latencies in microseconds.
    static func singles(_ store: some EventStore, count: Int) throws -> Workloads.Latencies {
        let stream = try StreamID("account-1")
        var micros: [Double] = []
        for _ in 0..<count {
            let proposed = [try event()]
            micros.append(try Workloads.seconds { _ = try store.append(proposed, to: stream, expected: .any) } * 1e6)
        }
        micros.sort()
        return Workloads.Latencies(p50: micros[micros.count / 2], p99: micros[min(micros.count - 1, micros.count * 99 / 100)])
    }

    /// `appenders` tasks appending single events through group commit; events per second.
    static func grouped(_ store: some EventStore, appenders: Int, each: Int) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<appenders {
                group.addTask {
                    let stream = try StreamID("account-\(task)")
                    for _ in 0..<each { _ = try await store.append([try event()], to: stream, expected: .any) }
                }
            }
            try await group.waitForAll()
        }
        return Double(appenders * each) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// The same as `grouped`, each appender's stream on the shard a two-shard map places it on.
    static func groupedOverShards(_ shards: [some EventStore], appenders: Int, each: Int) async throws -> Double {
        let map = try ShardPlacement(count: shards.count)
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<appenders {
                group.addTask {
                    let stream = try StreamID("account-\(task)")
                    let store = shards[map.shard(of: stream.rawValue)]
                    for _ in 0..<each { _ = try await store.append([try event()], to: stream, expected: .any) }
                }
            }
            try await group.waitForAll()
        }
        return Double(appenders * each) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// `appenders` threads appending single events, each append a transaction of its own.
    static func alone(_ store: some EventStore, appenders: Int, each: Int) throws -> Double {
        let failures = NSLock()
        nonisolated(unsafe) var failure: (any Error)?
        let done = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        for task in 0..<appenders {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                do {
                    let stream = try StreamID("account-\(task)")
                    for _ in 0..<each { _ = try store.append([try event()], to: stream, expected: .any) }
                } catch {
                    failures.withLock { failure = error }
                }
            }
            thread.start()
        }
        done.wait()
        if let failure { throw failure }
        return Double(appenders * each) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// The whole log verified; events per second.
    static func verify(_ store: some EventStoreReader) throws -> Double {
        var report: VerificationReport?
        let time = try Workloads.seconds { report = try store.verify(expectedHead: nil, progress: nil) }
        guard let report, report.isIntact else { throw BenchFailure("the benchmark's ledger does not verify") }
        return Double(report.eventsChecked) / time
    }

    /// The whole log replayed over two lanes, payloads opened; events per second.
    static func replay(_ store: some EventStoreReader) throws -> Double {
        let head = try store.head()?.position ?? 0
        let check = ReplayCheck(partitions: 2)
        let time = try Workloads.seconds { try store.replay(1..<(head + 1), verifying: check) { _, _ in } }
        try check.finish(head: try store.head())
        return Double(head) / time
    }
}

/// The placement of a shard map of `count` shards (its URLs play no part in it).
struct ShardPlacement {
    let map: ShardMap
    init(count: Int) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-shards-\(getpid()).json").path
        let shards = (0..<count).map { #"{"name": "s\#($0)", "url": "postgres://bench@shard\#($0)/reel"}"# }.joined(separator: ", ")
        try Data(#"{"format": "reel-shards/1", "shards": [\#(shards)]}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        map = try ShardMap.load(from: path)
    }
    func shard(of stream: String) -> Int { map.shard(of: stream) }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
