import LMDBStore
@testable import EventLog
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
    /// chunk itself, and nothing waits on a lane nobody runs. The limit catches a lane waited on
    /// for ever; it is generous because the lane threads are shared with every other test of the
    /// run (alone this takes 0.2 s; beside a full run on two loaded cores it took over a
    /// minute, and finished).
    @Test(.timeLimit(.minutes(5))) func appendsFromBusyLanesSealEverythingThemselves() throws {
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

    /// Around the size where the lanes take over, and at and around a whole number of chunks.
    @Test(arguments: [0, 1, 31, 32, 33, 255, 256, 257, 320])
    func everyBatchSizeReadsBack(count: Int) throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let stream = try StreamID("sizes")
        let batch = try events(count, tag: count)
        #expect(try log.append(batch, to: stream).positions == Array(0..<count).map { UInt64($0 + 1) })
        try expectStored(log, stream, batch)
        let report = try log.verify()
        #expect(report.isIntact, "\(String(describing: report.problem))")
    }

    /// Idempotency and duplicate ids are decided before anything of a large batch is written.
    @Test func aLargeBatchWithStoredOrRepeatedIdsIsRefusedWhole() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let stream = try StreamID("ann")
        let stored = try events(300, tag: 3)
        try log.append(stored, to: stream)
        // Half new, half stored: not a retry.
        let mixed = try events(300, tag: 4) + Array(stored[150...])
        let reused = stored[150].id.uuidString.lowercased()
        #expect(throws: EventLogError.duplicateEventID(id: reused, position: 151)) { try log.append(mixed, to: stream) }
        // One id twice in the batch.
        var repeated = try events(400, tag: 5)
        repeated[399] = repeated[7]
        let twice = repeated[7].id.uuidString.lowercased()
        #expect(throws: EventLogError.duplicateEventID(id: twice, position: 0)) { try log.append(repeated, to: stream) }
        #expect(try log.head()?.position == 300)
        #expect(try log.version(of: stream) == 300)
    }

    /// A payload that cannot be sealed midway through a large batch (a cipher failure, forced
    /// here): the batch's transaction commits nothing, and the caller learns it was the cipher
    /// (not "the data directory does not hold a readable ledger", as once).
    @Test func aSealingFailureMidwayCommitsNothing() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let stream = try StreamID("ann")
        let batch = try events(1_000, tag: 6)
        #expect(throws: GCMFailure.self) {
            try SealedBatch.$failingEventForTesting.withValue(600) { try log.append(batch, to: stream) }
        }
        #expect(try log.head() == nil)
        #expect(try log.version(of: stream) == 0)
        // Nothing of it is remembered: the same batch goes in whole afterwards.
        #expect(try log.append(batch, to: stream).positions.count == 1_000)
        try expectStored(log, stream, batch)
    }

    /// Inside a caller's transaction, a caller that swallows such a failure cannot commit the
    /// half-written batch; one that fails before anything is written can go on.
    @Test func aCallerCannotCommitAHalfWrittenBatch() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let stream = try StreamID("ann")
        let batch = try events(1_000, tag: 7)
        let other = try events(1, tag: 8)
        #expect(throws: GCMFailure.self) {
            try log.write { write in
                _ = try? SealedBatch.$failingEventForTesting.withValue(600) { try write.append(batch, to: stream) }
                try write.append(other, to: try StreamID("ben"))
            }
        }
        #expect(try log.head() == nil)
        // Failing at the first event writes nothing: the rest of the transaction commits.
        try log.write { write in
            _ = try? SealedBatch.$failingEventForTesting.withValue(0) { try write.append(batch, to: stream) }
            try write.append(other, to: try StreamID("ben"))
        }
        #expect(try log.head()?.position == 1)
        #expect(try log.version(of: stream) == 0)
        try expectStored(log, try StreamID("ben"), other)
    }
}
