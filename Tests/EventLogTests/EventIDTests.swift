import LMDBStore
import Foundation
import LMDB
import ReelTestSupport
import Synchronization
import Testing

@testable import EventLog

/// Event ids are version 7 UUIDs that ascend strictly within a process, so a batch made in order is
/// in the id index's order and the writer appends it without a lookup per id.
@Suite struct EventIDTests {
    private func halves(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) {
            (UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self)), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    @Test func idsMadeInARowAscendStrictlyAndStayVersion7() {
        let ids = (0..<200_000).map { _ in UUID.newEventID() }
        for (a, b) in zip(ids, ids.dropFirst()) { #expect(a.bytes.lexicographicallyPrecedes(b.bytes)) }
        for id in ids.prefix(1_000) + ids.suffix(1_000) {
            #expect(id.uuidString.lowercased().dropFirst(14).first == "7")  // version
            #expect("89ab".contains(id.uuidString.lowercased().dropFirst(19).first!))  // variant 10
        }
        // Still time-ordered: the first 48 bits are the milliseconds of about now.
        let now = UInt64(Date().timeIntervalSince1970 * 1_000)
        let (high, _) = halves(ids.last!)
        #expect((high >> 16) <= now + 1_000 && (high >> 16) + 60_000 >= now)
    }

    @Test func idsMadeOnManyThreadsAreUniqueAndAscendOnEach() async {
        let perThread = await withTaskGroup(of: [UUID].self) { group in
            for _ in 0..<4 { group.addTask { (0..<20_000).map { _ in UUID.newEventID() } } }
            var all: [[UUID]] = []
            for await ids in group { all.append(ids) }
            return all
        }
        #expect(Set(perThread.joined()).count == 80_000)
        for ids in perThread { #expect(zip(ids, ids.dropFirst()).allSatisfy { $0.bytes.lexicographicallyPrecedes($1.bytes) }) }
    }

    @Test func theSuccessorCarriesThroughTheRandomBitsIntoTheMilliseconds() {
        let variant: UInt64 = 0b10 << 62
        let ms: UInt64 = 0x0123_4567_89AB
        #expect(UUID.successor(of: (ms << 16 | 0x7ABC, variant | 5)) == (ms << 16 | 0x7ABC, variant | 6))
        #expect(UUID.successor(of: (ms << 16 | 0x7ABC, variant | ((1 << 62) - 1))) == (ms << 16 | 0x7ABD, variant))
        #expect(UUID.successor(of: (ms << 16 | 0x7FFF, variant | ((1 << 62) - 1))) == ((ms + 1) << 16 | 0x7000, variant))
    }

    /// Batches whose ids ascend past the index are appended at its end; the retry of such a batch,
    /// and a batch that repeats an id, are still recognised.
    @Test func ascendingBatchesAppendAndRetriesAndRepeatsAreStillCaught() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let stream = try StreamID("ann")
        let batch = try (0..<500).map { i in try ProposedEvent(type: "favorite-added", payload: Array("{\"id\":\(i + 1)}".utf8)) }
        let first = try log.append(batch, to: stream)
        #expect(first.positions == Array(1...500))
        #expect(try log.append(batch, to: stream) == AppendResult(positions: Array(1...500), streamVersion: 500, deduplicated: true))
        let more = try (0..<300).map { _ in try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":7}"#.utf8)) }
        #expect(try log.append(more, to: stream).positions == Array(501...800))
        let repeated = try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":8}"#.utf8))
        let fresh = try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":9}"#.utf8))
        #expect(throws: EventLogError.self) { try log.append([repeated, fresh, repeated], to: stream) }
        #expect(try log.version(of: stream) == 800)
        // Every id reads back at its position.
        let ids = try log.environment.database(named: "event-ids", [UInt8].self, UInt64.self)
        let stored = try log.environment.read { txn in try (batch + more).map { try txn.get(ids, $0.id.bytes) } }
        #expect(stored == (1...800).map { UInt64($0) })
    }
}
