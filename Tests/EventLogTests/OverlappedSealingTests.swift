import EventLog
import Foundation
import LMDB
import ReelTestSupport
import Testing

/// A large batch is sealed by the lanes while the appending thread writes it: every envelope must
/// still hold its own event's payload, whichever thread sealed it, wherever the append is called.
@Suite struct OverlappedSealingTests {
    private func events(_ count: Int, tag: Int) throws -> [ProposedEvent] {
        try (0..<count).map { i in
            // Payload sizes vary, so every event's sealed bytes sit at their own offset.
            let pad = String(repeating: "p", count: i % 37)
            let json: String = "{\"tag\":\(tag),\"n\":\(i),\"pad\":\"\(pad)\"}"
            let type = i % 5 == 0 ? "profile-name-changed" : "favorite-added"
            return try ProposedEvent(type: type, schemaVersion: UInt16(1 + i % 2), payload: Array(json.utf8))
        }
    }

    private func expectStored(_ log: EventLog, _ stream: StreamID, _ events: [ProposedEvent]) throws {
        let read = try log.read(stream: stream)
        #expect(read.count == events.count)
        #expect(read.map(\.payload) == events.map(\.payload))
        #expect(read.map(\.eventID) == events.map(\.id))
        #expect(read.map(\.type) == events.map(\.type))
        #expect(read.map(\.schemaVersion) == events.map(\.schemaVersion))
    }

    @Test func aLargeBatchIsWrittenWhileItIsSealed() throws {
        let dir = temporaryDirectory()
        let log = try EventLog.open(at: dir)
        let stream = try StreamID("ann")
        // Not a multiple of the chunk size: the last chunk is short.
        let batch = try events(5_003, tag: 1)
        let result = try log.append(batch, to: stream)
        #expect(result.positions == Array(1...5_003))
        try expectStored(log, stream, batch)
        #expect(Set(try log.envelopes(from: 1, maxCount: 6_000).map(\.nonce)).count == batch.count)
        #expect(try log.verify().isIntact)
        // A retry of the same large batch is recognized and writes nothing.
        #expect(try log.append(batch, to: stream).deduplicated)
        #expect(try log.head()?.position == 5_003)
    }

    /// Appends from inside busy lanes: no free thread is left to seal, so each writer seals every
    /// chunk itself, and nothing waits on a lane nobody runs.
    @Test func appendsFromBusyLanesSealEverythingThemselves() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let lanes = Array(0..<(2 * Parallel.maximumLanes))
        let batches = try lanes.map { try events(1_000, tag: $0) }
        _ = try Parallel.map(lanes, threshold: 1, state: ()) { _, lane in
            try log.append(batches[lane], to: try StreamID("lane-\(lane)"))
        }
        for lane in lanes { try expectStored(log, try StreamID("lane-\(lane)"), batches[lane]) }
        #expect(try log.verify().isIntact)
    }

    /// The same batch inside a caller's own transaction (as an import appends): written while
    /// sealed, and gone with the transaction when the caller throws.
    @Test func aLargeBatchInTheCallersTransactionRollsBackWithIt() throws {
        struct Abandon: Error {}
        let log = try EventLog.open(at: temporaryDirectory())
        let stream = try StreamID("ben")
        let batch = try events(2_000, tag: 2)
        #expect(throws: Abandon.self) {
            try log.write { write in
                try write.append(batch, to: stream)
                throw Abandon()
            }
        }
        #expect(try log.head() == nil)
        let recorded = try log.write { try $0.append(batch, to: stream) }
        #expect(recorded.map(\.payload) == batch.map(\.payload))
        try expectStored(log, stream, batch)
    }

    /// Through group commit a large batch is sealed in full before it joins the queue.
    @Test func largeBatchesThroughGroupCommit() async throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let batches = try (0..<4).map { try events(700, tag: 10 + $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, batch) in batches.enumerated() {
                group.addTask { try await log.append(batch, to: try StreamID("group-\(i)")) }
            }
            try await group.waitForAll()
        }
        for (i, batch) in batches.enumerated() { try expectStored(log, try StreamID("group-\(i)"), batch) }
        #expect(try log.verify().isIntact)
    }
}
