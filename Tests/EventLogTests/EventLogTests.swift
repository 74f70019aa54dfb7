import LMDBStore
import EventLog
import Foundation
import LMDB
import ReelTestSupport
import Synchronization
import Testing

private func event(_ type: String = "favorite-added", _ json: String = #"{"mediaType":"movie","id":550}"#, id: UUID = .newEventID()) throws -> ProposedEvent {
    try ProposedEvent(id: id, type: type, payload: Array(json.utf8))
}

@Suite struct AppendAndReadTests {
    @Test func positionsAreGaplessAndStreamsVersioned() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let ann = try StreamID("ann"), ben = try StreamID("ben")
        let a = try log.append([try event(), try event()], to: ann, expected: .noStream)
        let b = try log.append([try event()], to: ben)
        let c = try log.append([try event("favorite-removed")], to: ann, expected: .exact(2))
        #expect(a.positions == [1, 2] && a.streamVersion == 2)
        #expect(b.positions == [3] && b.streamVersion == 1)
        #expect(c.positions == [4] && c.streamVersion == 3)
        let annEvents = try log.read(stream: ann)
        #expect(annEvents.map(\.position) == [1, 2, 4])
        #expect(annEvents.map(\.streamVersion) == [1, 2, 3])
        #expect(annEvents.map(\.type) == ["favorite-added", "favorite-added", "favorite-removed"])
        #expect(try log.read(stream: ann, from: 3).map(\.position) == [4])
        #expect(try log.read(from: 2, maxCount: 2).map(\.position) == [2, 3])
        #expect(try log.head()?.position == 4)
        #expect(try log.streams() == [StreamSummary(stream: ann, version: 3), StreamSummary(stream: ben, version: 1)])
        let payload = try #require(annEvents.first?.payload)
        #expect(String(decoding: payload, as: UTF8.self) == #"{"mediaType":"movie","id":550}"#)
    }

    @Test func streamsWhoseNamesArePrefixesStayApart() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        try log.append([try event()], to: try StreamID("ann"))
        try log.append([try event()], to: try StreamID("ann2"))
        #expect(try log.read(stream: try StreamID("ann")).count == 1)
    }

    @Test func recordedAtNeverDecreasesAlongPositions() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        for _ in 0..<20 { try log.append([try event(), try event()], to: try StreamID("s")) }
        let times = try log.read(from: 1, maxCount: 100).map(\.envelope.recordedAtMicroseconds)
        #expect(times == times.sorted())
    }

    @Test func payloadsAreSealedOnDisk() throws {
        let dir = temporaryDirectory()
        let log = try EventLog.open(at: dir)
        try log.append([try event("profile-name-changed", #"{"name":"PLAINTEXT-NAME-MARKER"}"#)], to: try StreamID("ann"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/ledger/data.mdb"))
        #expect(bytes.range(of: Data("PLAINTEXT-NAME-MARKER".utf8)) == nil)
        #expect(try log.read(stream: try StreamID("ann")).first?.payload == Array(#"{"name":"PLAINTEXT-NAME-MARKER"}"#.utf8))
    }

    @Test func invalidInputIsRejectedWithClearErrors() throws {
        #expect(throws: EventLogError.invalidStreamID("")) { try StreamID("") }
        #expect(throws: EventLogError.invalidStreamID("a\u{0}b")) { try StreamID("a\u{0}b") }
        #expect(throws: EventLogError.invalidEventType("")) { try ProposedEvent(type: "", payload: []) }
        let big = [UInt8](repeating: 0, count: ProposedEvent.maximumPayloadSize + 1)
        #expect(throws: EventLogError.payloadTooLarge(size: big.count, limit: ProposedEvent.maximumPayloadSize)) {
            try ProposedEvent(type: "x", payload: big)
        }
    }

    @Test func eventBatchesWalkTheWholeLog() async throws {
        let log = try EventLog.open(at: temporaryDirectory())
        for i in 0..<25 { try await log.append([try event(), try event()], to: try StreamID("s\(i % 3)")) }
        var positions: [UInt64] = []
        for try await e in log.events(from: 7, batchSize: 4) { positions.append(e.position) }
        #expect(positions == Array(7...50))
        // Batches read ahead start where the one before ends: every start and size, ending
        // exactly at a batch's end or inside one, past the end, and an empty log.
        for (from, size) in [(1, 1), (1, 2), (1, 10), (1, 25), (1, 49), (1, 50), (1, 51), (2, 7), (44, 7), (50, 3), (51, 4), (80, 2)] {
            var seen: [UInt64] = []
            for try await e in log.events(from: UInt64(from), batchSize: size) { seen.append(e.position) }
            #expect(seen == (from <= 50 ? Array(UInt64(from)...50) : []), "from \(from), batches of \(size)")
        }
        var none: [UInt64] = []
        for try await e in try EventLog.open(at: temporaryDirectory()).events(from: 1, batchSize: 3) { none.append(e.position) }
        #expect(none.isEmpty)
    }

    /// Batches read ahead, and each lane reuses the previous envelope's stream id and type when the
    /// bytes match: interleaved streams and types still come back exactly as appended.
    @Test func largeBatchesOfInterleavedStreamsAndTypesReadBackExactly() async throws {
        let log = try EventLog.open(at: temporaryDirectory())
        var expected: [(String, String, [UInt8])] = []
        for i in 0..<30 {
            let stream = "account-\(i % 7)-" + String(repeating: "x", count: i % 3 == 0 ? 40 : 2)
            let events = try (0..<100).map { j in
                try event(j % 3 == 0 ? "favorite-removed" : j % 3 == 1 ? "profile-name-changed" : "favorite-added", #"{"n":\#(i * 100 + j)}"#)
            }
            try await log.append(events, to: try StreamID(stream))
            expected += events.map { (stream, $0.type, $0.payload) }
        }
        var got: [(String, String, [UInt8])] = []
        for try await e in log.events(from: 1, batchSize: 512) { got.append((e.streamID.rawValue, e.type, e.payload ?? [])) }
        #expect(got.count == expected.count)
        #expect(zip(got, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 })
    }
}

@Suite struct ExpectedVersionTests {
    @Test func aConflictNamesExpectedAndActualVersions() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let ann = try StreamID("ann")
        try log.append([try event(), try event()], to: ann)
        #expect(throws: EventLogError.wrongExpectedVersion(stream: ann, expected: .noStream, actual: 2)) {
            try log.append([try event()], to: ann, expected: .noStream)
        }
        #expect(throws: EventLogError.wrongExpectedVersion(stream: ann, expected: .exact(1), actual: 2)) {
            try log.append([try event()], to: ann, expected: .exact(1))
        }
        #expect(try log.head()?.position == 2)
        #expect(try log.append([try event()], to: ann, expected: .exact(2)).streamVersion == 3)
        #expect(throws: EventLogError.wrongExpectedVersion(stream: try StreamID("new"), expected: .exact(1), actual: 0)) {
            try log.append([try event()], to: try StreamID("new"), expected: .exact(1))
        }
    }

    @Test func aMultiEventAppendIsAllOrNothing() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let ann = try StreamID("ann")
        let reused = UUID.newEventID()
        try log.append([try event(id: reused)], to: try StreamID("ben"))
        // The second event's id is taken: the first must not be written either.
        #expect(throws: EventLogError.self) {
            try log.append([try event(), try event(id: reused)], to: ann)
        }
        #expect(try log.version(of: ann) == 0)
        #expect(try log.head()?.position == 1)
    }
}

@Suite struct IdempotencyTests {
    @Test func reappendingKnownIdsReturnsTheOriginalPositionsAndWritesNothing() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let ann = try StreamID("ann")
        let events = [try event(), try event()]
        let first = try log.append(events, to: ann, expected: .noStream)
        let again = try log.append(events, to: ann, expected: .noStream)
        #expect(again.positions == first.positions)
        #expect(again.deduplicated && !first.deduplicated)
        #expect(try log.head()?.position == 2)
    }

    @Test func dedupeSurvivesReopening() throws {
        let dir = temporaryDirectory()
        let ids = [UUID.newEventID(), UUID.newEventID()]
        do {
            let log = try EventLog.open(at: dir)
            try log.append(ids.map { try event(id: $0) }, to: try StreamID("ann"))
        }
        let reopened = try EventLog.open(at: dir)
        let again = try reopened.append(ids.map { try event(id: $0) }, to: try StreamID("ann"))
        #expect(again.deduplicated && again.positions == [1, 2])
        #expect(try reopened.position(of: ids[1]) == 2)
    }

    /// A batch's ids are looked up one by one unless they all sort after the newest stored id:
    /// ids made earlier (or random ones) are still appended once and deduplicated after.
    @Test func idsOlderThanTheNewestStoredAreStillAppendedOnceAndDeduplicated() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let early = [UUID.newEventID(), UUID.newEventID(), UUID(), UUID()]
        // Ids ascend strictly within a process: made after `early`, these sort after its first
        // two, in the same millisecond or not (no pause is needed for them to be newer).
        let stored = [UUID.newEventID(), UUID.newEventID()]
        #expect(stored.allSatisfy { $0.uuidString.lowercased() > early[1].uuidString.lowercased() })
        try log.append(stored.map { try event(id: $0) }, to: try StreamID("ann"))
        let first = try log.append(early.map { try event(id: $0) }, to: try StreamID("ann"))
        #expect(!first.deduplicated && first.positions == [3, 4, 5, 6])
        let again = try log.append(early.map { try event(id: $0) }, to: try StreamID("ann"))
        #expect(again.deduplicated && again.positions == [3, 4, 5, 6])
        let newer = try log.append([try event(), try event()], to: try StreamID("ann"))
        #expect(!newer.deduplicated && newer.positions == [7, 8])
        #expect(try log.verify().isIntact)
    }

    @Test func aKnownIdInAnotherStreamOrAPartialRetryIsAnError() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let id = UUID.newEventID()
        try log.append([try event(id: id)], to: try StreamID("ann"))
        #expect(throws: EventLogError.duplicateEventID(id: id.uuidString.lowercased(), position: 1)) {
            try log.append([try event(id: id)], to: try StreamID("ben"))
        }
        #expect(throws: EventLogError.duplicateEventID(id: id.uuidString.lowercased(), position: 1)) {
            try log.append([try event(id: id), try event()], to: try StreamID("ann"))
        }
        #expect(try log.head()?.position == 1)
    }
}

@Suite struct GroupCommitTests {
    @Test func concurrentAppendersShareTransactionsAndEachGetsItsOwnResult() async throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let before = try log.environment.info().lastTransactionID
        let results = try await withThrowingTaskGroup(of: (Int, AppendResult).self) { group in
            for task in 0..<64 {
                group.addTask {
                    var last: AppendResult?
                    for _ in 0..<20 {
                        last = try await log.append([try event()], to: try StreamID("s\(task % 8)"))
                    }
                    return (task, last!)
                }
            }
            return try await group.reduce(into: [(Int, AppendResult)]()) { $0.append($1) }
        }
        let transactions = try log.environment.info().lastTransactionID - before
        #expect(results.count == 64)
        let all = try log.read(from: 1, maxCount: 10_000)
        #expect(all.map(\.position) == Array(1...1_280))
        for s in 0..<8 {
            #expect(try log.read(stream: try StreamID("s\(s)")).map(\.streamVersion) == Array(1...160))
        }
        // 1,280 appends committed in far fewer transactions than appends.
        #expect(transactions < 1_280 / 2)
        #expect(try log.verify().isIntact)
    }

    @Test func oneCallersConflictDoesNotFailTheOthersInItsGroup() async throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let ann = try StreamID("ann")
        try await log.append([try event()], to: ann)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<40 {
                group.addTask {
                    do {
                        // Every even caller expects a version the stream is not at.
                        try await log.append([try event()], to: try StreamID("s\(i)"), expected: i % 2 == 0 ? .exact(7) : .any)
                        return true
                    } catch { return false }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 20)
        #expect(try log.head()?.position == 21)
        #expect(try log.verify().isIntact)
    }
}

@Suite struct SubscriptionTests {
    @Test func historyThenCaughtUpThenLiveEvents() async throws {
        let log = try EventLog.open(at: temporaryDirectory())
        let ann = try StreamID("ann")
        for _ in 0..<5 { try await log.append([try event()], to: ann) }
        var received: [String] = []
        final class Flag: Sendable { let raised = Mutex(false) }
        let caughtUp = Flag()
        // The new events come once the subscriber has caught up: live, not history. (If it never
        // says so, they come all the same, and the order below fails rather than the test hang.)
        let appender = Task {
            try? await waitFor("the subscriber to catch up") { caughtUp.raised.withLock { $0 } }
            for _ in 0..<3 { try await log.append([try event("favorite-removed")], to: ann) }
        }
        for try await message in log.subscribe(from: 2, batchSize: 2) {
            switch message {
            case .event(let e): received.append("\(e.position)")
            case .caughtUp:
                received.append("caught-up")
                caughtUp.raised.withLock { $0 = true }
            }
            if received.count == 8 || received.last == "8" { break }
        }
        try await appender.value
        #expect(received == ["2", "3", "4", "5", "caught-up", "6", "7", "8"])
    }
}

@Suite struct GrowthTests {
    @Test func aLedgerStartingWithA64KiBMapTakesManyEvents() throws {
        var configuration = EventLog.Configuration()
        configuration.ledger.initialMapSize = 64 << 10
        let log = try EventLog.open(at: temporaryDirectory(), configuration: configuration)
        let payload = String(repeating: "x", count: 200)
        for b in 0..<100 {
            try log.append(try (0..<1_000).map { _ in try event("stress", payload) }, to: try StreamID("s\(b % 10)"))
        }
        #expect(log.environment.growthCount > 5)
        #expect(try log.head()?.position == 100_000)
        #expect(try log.verify().isIntact)
    }
}

@Suite struct VerifyTests {
    @Test func anIntactLedgerVerifiesAndBackupKeepsTheHead() throws {
        let dir = temporaryDirectory()
        let log = try EventLog.open(at: dir)
        for i in 0..<30 { try log.append([try event()], to: try StreamID("s\(i % 4)")) }
        let report = try log.verify()
        #expect(report.isIntact && report.eventsChecked == 30)
        #expect(report.head == (try log.head()))
        try log.backup(to: dir + "-copy")
        // The copy's keys are wrapped under the original's keyring, which the backup does not carry.
        let copy = try EventLog.open(at: dir + "-copy", configuration: .init(keyringDirectory: dir + "/keyrings"))
        #expect(try copy.verify().head == report.head)
        #expect(try copy.read(stream: try StreamID("s1")).count == 8)
        #expect(try log.verify(expectedHead: report.head!.hash).isIntact)
        let other = try #require(ChainHash(hex: String(repeating: "ab", count: 32)))
        #expect(try log.verify(expectedHead: other).problem?.rule == .headMismatch)
    }

    /// The verifier checks chunk k while it hashes chunk k + 1: a fault in a middle chunk, or in
    /// the last partial one, is still the first problem reported, at its position.
    @Test(arguments: [1 as UInt64, 8_192, 8_193, 12_345, 16_385, 20_000])
    func damageInAnyChunkIsReportedAtItsPosition(_ damaged: UInt64) throws {
        let dir = temporaryDirectory()
        let log = try EventLog.open(at: dir)
        for b in 0..<20 {
            try log.append(try (0..<1_000).map { _ in try event() }, to: try StreamID("s\(b % 3)"))
        }
        var seen: [UInt64] = []
        let intact = try log.verify(progress: { done, total in seen.append(done); #expect(total == 20_000) })
        #expect(intact.isIntact && intact.eventsChecked == 20_000)
        #expect(seen == [8_192, 16_384, 20_000])

        let events = try log.environment.database(named: "events", UInt64.self, [UInt8].self)
        try log.environment.write { txn in
            var bytes = try #require(try txn.get(events, damaged))
            bytes[bytes.count - 40] ^= 0x01
            try txn.put(events, damaged, bytes)
        }
        let report = try log.verify()
        #expect(report.problem?.rule == .hashMismatch)
        #expect(report.problem?.position == damaged)
        #expect(report.eventsChecked == damaged - 1)
    }

    @Test func anEmptyLedgerIsIntact() throws {
        let report = try EventLog.open(at: temporaryDirectory()).verify()
        #expect(report.isIntact && report.eventsChecked == 0 && report.head == nil)
    }

    @Test func envelopeJSONKeepsEveryField() throws {
        let log = try EventLog.open(at: temporaryDirectory())
        try log.append([try event()], to: try StreamID("ann"))
        let envelope = try #require(try log.envelopes().first)
        let json = EnvelopeJSON(envelope)
        #expect(json.position == 1 && json.streamId == "ann" && json.streamVersion == 1)
        #expect(json.previousHash == String(repeating: "0", count: 64))
        #expect(json.hash == envelope.hash.hex && json.hash.count == 64)
        #expect(Data(base64Encoded: json.seal.nonce)?.count == 12)
        #expect(json.recordedAt.hasSuffix("Z") && json.recordedAt.count == 27)
        #expect(EnvelopeJSON.timestamp(microseconds: 1_795_269_723_123_456) == "2026-11-21T14:02:03.123456Z")
    }
}
