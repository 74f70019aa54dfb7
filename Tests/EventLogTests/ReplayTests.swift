import LMDBStore
import Crypto
import EventLog
import Foundation
import LMDB
import ReelTestSupport
import Synchronization
import Testing

/// `EventLog.replay` splits the log by stream over lanes and shows each stored event in place (no
/// envelope copy, the payload opened into the lane's buffer); together the lanes must see exactly
/// what `read` returns.
@Suite struct ReplayTests {
    /// What a replay's transform keeps of each view.
    struct Seen: Sendable, Equatable {
        let position: UInt64, stream: String, version: UInt64, type: String, schemaVersion: UInt16, payload: [UInt8]?, eventID: UUID
        let recordedAt: Int64
    }

    /// What every partition saw, merged in log order; each partition's own events must come in
    /// order and no stream may be seen by two partitions.
    private func seen(_ log: EventLog, _ positions: Range<UInt64> = 1..<100_000, partitions: Int = 3) throws -> [Seen] {
        let parts = Mutex([[Seen]](repeating: [], count: partitions))
        try log.replay(positions, partitions: partitions) { p, v in
            let seen = Seen(
                position: v.position, stream: v.streamID.rawValue, version: v.streamVersion, type: v.type, schemaVersion: v.schemaVersion,
                payload: v.payload.map { Array($0) }, eventID: v.eventID, recordedAt: v.recordedAtMicroseconds)
            parts.withLock { $0[p].append(seen) }
        }
        let all = parts.withLock { $0 }
        for part in all { #expect(part.map(\.position) == part.map(\.position).sorted()) }
        let owners = all.map { Set($0.map(\.stream)) }
        for i in owners.indices { for j in owners.indices where i < j { #expect(owners[i].isDisjoint(with: owners[j])) } }
        return all.flatMap { $0 }.sorted { $0.position < $1.position }
    }

    private func read(_ log: EventLog) throws -> [Seen] {
        try log.read(from: 1, maxCount: 100_000).map { e in
            Seen(
                position: e.position, stream: e.streamID.rawValue, version: e.streamVersion, type: e.type, schemaVersion: e.schemaVersion,
                payload: e.payload, eventID: e.eventID, recordedAt: e.envelope.recordedAtMicroseconds)
        }
    }

    @Test func aReplayShowsWhatReadReturnsForRunsAndInterleavedStreams() async throws {
        let log = try EventLog.open(at: temporaryDirectory())
        // Runs of one stream (appended together) and single events of many streams, payloads of
        // many sizes (a lane's buffer grows), and three types.
        for i in 0..<12 {
            let events = try (0..<150).map { j in
                try ProposedEvent(
                    type: ["favorite-added", "favorite-removed", "language-switched"][j % 3], schemaVersion: UInt16(1 + j % 2),
                    payload: Array("{\"n\":\(i * 1000 + j),\"pad\":\"\(String(repeating: "p", count: (i * 37 + j * 11) % 700))\"}".utf8))
            }
            try await log.append(events, to: try StreamID("account-run-\(i)"))
            for k in 0..<40 { try await log.append([try ProposedEvent(type: "x", payload: Array("{\"k\":\(k)}".utf8))], to: try StreamID("single-\(k)")) }
        }
        let expected = try read(log)
        #expect(expected.count == 12 * 190)
        #expect(try seen(log) == expected)
        #expect(try seen(log, partitions: 1) == expected)
        #expect(try seen(log, 777..<1277) == Array(expected[776..<1276]))
        #expect(try seen(log, UInt64(expected.count + 1)..<100_000).isEmpty)
    }

    @Test func aShreddedStreamShowsNoPayloadAndTheOthersStillOpen() async throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let gone = try StreamID("account-gone"), kept = try StreamID("account-kept")
        for _ in 0..<3 {
            try await log.append(try (0..<200).map { _ in try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":1}"#.utf8)) }, to: gone)
            try await log.append(try (0..<200).map { _ in try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":2}"#.utf8)) }, to: kept)
        }
        // A key is destroyed only on the authority of the closing event, last in its stream.
        try await log.append([try ProposedEvent(type: "account-deleted", payload: Array("{}".utf8))], to: gone)
        try log.write { try $0.close(gone, atMicroseconds: 1) }
        try log.completeShredding()
        let views = try seen(log)
        #expect(views.count == 1_201)
        #expect(views.filter { $0.stream == gone.rawValue }.allSatisfy { $0.payload == nil })
        #expect(views.filter { $0.stream == kept.rawValue }.allSatisfy { $0.payload == Array(#"{"id":2}"#.utf8) })
    }

    /// A log open for hours (the terminal app) stops opening a stream's payloads once another
    /// process destroyed its key: reads, replays and blobs see it shredded, not a key it read before.
    @Test func aKeyDestroyedByAnotherHandleIsNotUsedAgain() async throws {
        let dir = temporaryDirectory()
        let reader = try EventLog.open(at: dir)
        let gone = try StreamID("account-gone"), kept = try StreamID("account-kept")
        try await reader.append([try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":1}"#.utf8))], to: gone)
        try await reader.append([try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":2}"#.utf8))], to: kept)
        #expect(try reader.read(stream: gone).first?.payload != nil, "the key is read, and remembered")
        // Another handle (as another process would) deletes the stream and destroys its key.
        let deleter = try EventLog.open(at: dir)
        try await deleter.append([try ProposedEvent(type: "account-deleted", payload: Array("{}".utf8))], to: gone)
        try deleter.write { try $0.close(gone, atMicroseconds: 1) }
        try deleter.completeShredding()
        #expect(try reader.read(stream: gone).allSatisfy { $0.payload == nil })
        #expect(try reader.read(from: 1).filter { $0.envelope.streamID == gone }.allSatisfy { $0.payload == nil })
        #expect(try seen(reader).filter { $0.stream == gone.rawValue }.allSatisfy { $0.payload == nil })
        #expect(try reader.read(stream: kept).first?.payload == Array(#"{"id":2}"#.utf8))
    }

    @Test(arguments: [1, 300])
    func aPayloadThatDoesNotAuthenticateIsACorruptEnvelopeAtItsPosition(_ batch: Int) throws {
        let log = try EventLog.open(at: temporaryDirectory())
        try log.append(try (0..<batch).map { _ in try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":550}"#.utf8)) }, to: try StreamID("ann"))
        let damaged = UInt64(batch)
        let events = try log.environment.database(named: "events", UInt64.self, [UInt8].self)
        try log.environment.write { txn in
            var bytes = try #require(try txn.get(events, damaged))
            bytes[bytes.count - 40] ^= 0x01
            // Hashed again, so the chain holds and only the payload's tag fails (a replay checks
            // the hash first: see ReplayCheckTests).
            bytes.replaceSubrange((bytes.count - 32)..., with: Array(SHA256.hash(data: bytes[..<(bytes.count - 32)])))
            try txn.put(events, damaged, bytes)
        }
        #expect {
            _ = try seen(log)
        } throws: { error in
            guard case EventLogError.corruptEnvelope(let position, let reason) = error else { return false }
            return position == damaged && reason.contains("does not authenticate")
        }
    }

    /// The transform's own errors (a payload it cannot decode) reach the caller as thrown, and the
    /// earliest one in the log wins, whichever lane met it.
    @Test func theTransformsEarliestErrorReachesTheCallerUnchanged() throws {
        struct Undecodable: Error, Equatable { let position: UInt64 }
        let log = try EventLog.open(at: temporaryDirectory())
        try log.append(try (0..<2_000).map { _ in try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":550}"#.utf8)) }, to: try StreamID("ann"))
        #expect(throws: Undecodable(position: 700)) {
            try log.replay(1..<5_000, partitions: 2) { _, v in
                if v.position == 700 || v.position == 1_900 { throw Undecodable(position: v.position) }
            }
        }
        // Streams on both lanes: the earliest failure is on one, a later one on the other.
        let cy = try StreamID("cy")
        try log.append(try (0..<2_000).map { _ in try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":1}"#.utf8)) }, to: cy)
        try log.append(try (0..<2_000).map { _ in try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":2}"#.utf8)) }, to: try StreamID("ann"))
        let lanes = Mutex([String: Int]())
        try log.replay(1..<7_000, partitions: 2) { p, v in lanes.withLock { $0[v.streamID.rawValue] = p } }
        #expect(lanes.withLock { $0["ann"] != $0["cy"] })
        #expect(throws: Undecodable(position: 2_500)) {
            try log.replay(1..<7_000, partitions: 2) { _, v in
                if v.position == 2_500 || v.position == 4_500 { throw Undecodable(position: v.position) }
            }
        }
    }
}
