import LMDBStore
import EventLog
import Foundation
import LMDB

/// Reel's side of each benchmark.
enum Workloads {
    static func payload(_ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Appends `events` in calls of 1,000 events (one transaction each), streams round-robin.
    static func batchedAppend(_ dir: String, events: Int, payload size: Int, streams: Int = 100, tree: Bool = true) throws -> Double {
        var configuration = EventLog.Configuration()
        configuration.keepsTree = tree
        let log = try EventLog.open(at: dir, configuration: configuration)
        let payload = payload(size)
        let ids = try (0..<streams).map { try StreamID("account-\($0)") }
        let time = try seconds {
            for batch in 0..<(events / 1_000) {
                let proposed = try (0..<1_000).map { _ in try ProposedEvent(type: "favorite-added", payload: payload) }
                try log.append(proposed, to: ids[batch % streams])
            }
        }
        return Double(events / 1_000 * 1_000) / time
    }

    /// The same batches from two tasks through group commit: sealing overlaps the writer.
    static func pipelinedAppend(_ dir: String, events: Int, payload size: Int) async throws -> Double {
        let log = try EventLog.open(at: dir)
        let payload = payload(size)
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for producer in 0..<2 {
                group.addTask {
                    for batch in stride(from: producer, to: events / 1_000, by: 2) {
                        let proposed = try (0..<1_000).map { _ in try ProposedEvent(type: "favorite-added", payload: payload) }
                        try await log.append(proposed, to: try StreamID("account-\(batch % 100)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(events / 1_000 * 1_000) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    struct Latencies { let p50: Double; let p99: Double }

    /// `count` durable single-event appends one after another; latencies in microseconds.
    static func singleAppends(_ dir: String, count: Int, payload size: Int) throws -> Latencies {
        let log = try EventLog.open(at: dir)
        let payload = payload(size)
        let stream = try StreamID("account-1")
        var micros: [Double] = []
        for _ in 0..<count {
            let event = try ProposedEvent(type: "favorite-added", payload: payload)
            micros.append(try seconds { try log.append([event], to: stream) } * 1e6)
        }
        micros.sort()
        return Latencies(p50: micros[micros.count / 2], p99: micros[min(micros.count - 1, micros.count * 99 / 100)])
    }

    struct GroupFigures { let eventsPerSecond: Double; let eventsPerTransaction: Double }

    /// `appenders` tasks, each appending `each` single events one after another.
    static func groupCommit(_ dir: String, appenders: Int, each: Int, payload size: Int) async throws -> GroupFigures {
        let log = try EventLog.open(at: dir)
        let payload = payload(size)
        let before = try log.environment.info().lastTransactionID
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<appenders {
                group.addTask {
                    let stream = try StreamID("account-\(task)")
                    for _ in 0..<each {
                        try await log.append([try ProposedEvent(type: "favorite-added", payload: payload)], to: stream)
                    }
                }
            }
            try await group.waitForAll()
        }
        let time = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let transactions = try log.environment.info().lastTransactionID - before
        let total = Double(appenders * each)
        return GroupFigures(eventsPerSecond: total / time, eventsPerTransaction: total / Double(max(transactions, 1)))
    }
}
