public import EventLog
import Foundation

/// The contract of `EventStore`, written once and run against every store: the LMDB store in
/// `EventLogTests`, a PostgreSQL store in its own tests. Each clause makes a fresh store with
/// `make` and throws `ContractViolation` where the store breaks it (no test framework here, so any
/// test target can run it: `try await contract.check(clause)`).
public struct EventStoreContract<Store: EventStore>: Sendable {
    /// One promise of the contract.
    public enum Clause: String, CaseIterable, Sendable, CustomStringConvertible {
        case positionsAreGaplessAndStreamsVersioned
        case aWrongExpectedVersionStoresNothing
        case aRetryIsDeduplicatedAndAPartialOneRefused
        case readsByPositionAndByStreamHonourTheirBounds
        case aWriteCommitsAppendsAndProjectionTablesTogether
        case aFailedWriteLeavesNeitherEventsNorProjections
        case projectionTablesAreOrderedAndReadOnlyInASnapshot
        case aWriteReadsItsOwnProjectionWrites
        case aReplayGivesEachStreamToOneLaneInOrder
        case anIntactLogVerifies
        case shreddingDestroysTheKeyOnCommitAndKeepsTheChain
        case blobsOpenOnlyUnderTheirStreamAndContext
        case concurrentAppendsEachGetTheirOwnResult
        case aSubscriptionCatchesUpThenDeliversWhatCommitsLater
        case aReadAtLeastAPositionHoldsIt
        case theTreeCoversEveryEnvelopeAsStored
        case aTenThousandEventTreeProvesEveryPositionAndEveryGrowth

        public var description: String { rawValue }
    }

    let make: @Sendable () throws -> Store
    /// The event type that closes a stream for good in the stores `make` makes.
    let closingType: String

    public init(closingType: String = "account-deleted", make: @escaping @Sendable () throws -> Store) {
        self.make = make
        self.closingType = closingType
    }

    /// Checks `clause` against a fresh store.
    public func check(_ clause: Clause) async throws {
        switch clause {
        case .concurrentAppendsEachGetTheirOwnResult: try await concurrentAppends(try make())
        case .aSubscriptionCatchesUpThenDeliversWhatCommitsLater: try await subscription(try make())
        default: try checkBlocking(clause)
        }
    }

    /// Whether `clause` awaits (group commit, a subscription): the others block their thread
    /// throughout, and are better run off the concurrency pool (`checkBlocking`).
    public static func isAsync(_ clause: Clause) -> Bool {
        clause == .concurrentAppendsEachGetTheirOwnResult || clause == .aSubscriptionCatchesUpThenDeliversWhatCommitsLater
    }

    /// Checks a clause that does not await (see `isAsync`) on the calling thread.
    public func checkBlocking(_ clause: Clause) throws {
        precondition(!Self.isAsync(clause), "\(clause) awaits: use check(_:)")
        let store = try make()
        switch clause {
        case .positionsAreGaplessAndStreamsVersioned: try positions(store)
        case .aWrongExpectedVersionStoresNothing: try wrongExpectedVersion(store)
        case .aRetryIsDeduplicatedAndAPartialOneRefused: try retries(store)
        case .readsByPositionAndByStreamHonourTheirBounds: try reads(store)
        case .aWriteCommitsAppendsAndProjectionTablesTogether: try writeCommits(store)
        case .aFailedWriteLeavesNeitherEventsNorProjections: try failedWrite(store)
        case .projectionTablesAreOrderedAndReadOnlyInASnapshot: try tables(store)
        case .aWriteReadsItsOwnProjectionWrites: try ownWrites(store)
        case .aReplayGivesEachStreamToOneLaneInOrder: try replay(store)
        case .anIntactLogVerifies: try verifies(store)
        case .shreddingDestroysTheKeyOnCommitAndKeepsTheChain: try shredding(store)
        case .blobsOpenOnlyUnderTheirStreamAndContext: try blobs(store)
        case .aReadAtLeastAPositionHoldsIt: try readsAtLeast(store)
        case .theTreeCoversEveryEnvelopeAsStored: try tree(store)
        case .aTenThousandEventTreeProvesEveryPositionAndEveryGrowth: try largeTree(store)
        case .concurrentAppendsEachGetTheirOwnResult, .aSubscriptionCatchesUpThenDeliversWhatCommitsLater: break
        }
    }

    // MARK: - Clauses

    /// A read asked to hold a position (what its caller was told is committed) holds it, however
    /// soon after the commit it comes: a store that reads from copies (standbys) answers from one
    /// that has it, or from its primary.
    func readsAtLeast(_ store: Store) throws {
        let ann = try StreamID("ann"), ben = try StreamID("ben")
        for round in 1...20 {
            let appended = try store.append([try event()], to: ann, expected: .any)
            let position = appended.positions[0]
            let (head, stream) = try store.read(atLeast: .position(position)) { snapshot in
                (try snapshot.head()?.position ?? 0, try snapshot.read(stream: ann, from: 1, maxCount: .max).count)
            }
            try expect(head >= position && stream >= round, "a read at least at \(position) saw head \(head) and \(stream) events of the stream")
            _ = try store.append([try event()], to: ben, expected: .any)
            let version = try store.read(atLeast: .version(UInt64(round), of: ben)) { try $0.read(stream: ben, from: 1, maxCount: .max).count }
            try expect(version >= round, "a read at least at version \(round) of ben saw \(version) of its events")
        }
        let (head, all) = try store.read(atLeast: .position(0)) { (try $0.head()?.position ?? 0, try $0.read(from: 1, maxCount: .max).count) }
        try expect(head == UInt64(all), "a read at least at 0 is one consistent snapshot: head \(head), \(all) events")
    }

    func positions(_ store: Store) throws {
        let ann = try StreamID("ann"), ben = try StreamID("ben")
        let a = try store.append([try event(), try event()], to: ann, expected: .noStream)
        let b = try store.append([try event()], to: ben, expected: .noStream)
        let c = try store.append([try event()], to: ann, expected: .exact(2))
        try expect(a.positions == [1, 2] && a.streamVersion == 2, "first append: \(a)")
        try expect(b.positions == [3] && b.streamVersion == 1, "second stream: \(b)")
        try expect(c.positions == [4] && c.streamVersion == 3, "third append: \(c)")
        try expect(try store.head()?.position == 4, "head after four events")
        try expect(try store.version(of: ann) == 3 && store.version(of: ben) == 1, "stream versions")
        try expect(try store.version(of: try StreamID("nobody")) == 0, "a stream never written is at 0")
        try expect(
            try store.streams() == [StreamSummary(stream: ann, version: 3), StreamSummary(stream: ben, version: 1)], "streams in id order")
        let all = try store.read(from: 1, maxCount: .max)
        try expect(all.map(\.position) == [1, 2, 3, 4], "positions run on without a gap")
        try expect(all.map(\.streamID) == [ann, ann, ben, ann], "each event in its stream")
    }

    func wrongExpectedVersion(_ store: Store) throws {
        let ann = try StreamID("ann")
        _ = try store.append([try event()], to: ann, expected: .noStream)
        for expected in [ExpectedVersion.noStream, .exact(0), .exact(2)] {
            do {
                _ = try store.append([try event(), try event()], to: ann, expected: expected)
                throw ContractViolation("an append expecting \(expected) of a stream at 1 was stored")
            } catch EventLogError.wrongExpectedVersion(let stream, let wanted, let actual) {
                try expect(stream == ann && wanted == expected && actual == 1, "the conflict names stream, expected and actual")
            }
        }
        try expect(try store.head()?.position == 1 && store.version(of: ann) == 1, "nothing of a refused append is stored")
    }

    func retries(_ store: Store) throws {
        let ann = try StreamID("ann")
        let events = [try event(), try event()]
        let first = try store.append(events, to: ann, expected: .noStream)
        let again = try store.append(events, to: ann, expected: .noStream)
        try expect(!first.deduplicated && again.deduplicated && again.positions == first.positions, "a retry answers the first positions")
        try expect(try store.head()?.position == 2, "a retry stores nothing")
        try expect(try store.position(of: events[1].id) == 2, "an event id finds its position")
        do {
            _ = try store.append([events[0], try event()], to: ann, expected: .any)
            throw ContractViolation("a partial retry was stored")
        } catch EventLogError.duplicateEventID(_, let position) {
            try expect(position == 1, "the duplicate names where the id is stored")
        }
        do {
            _ = try store.append([events[0]], to: try StreamID("ben"), expected: .any)
            throw ContractViolation("a known id was stored again in another stream")
        } catch EventLogError.duplicateEventID {}
        try expect(try store.head()?.position == 2, "refused retries store nothing")
    }

    func reads(_ store: Store) throws {
        let ann = try StreamID("ann"), ben = try StreamID("ben")
        for i in 0..<6 { _ = try store.append([try event()], to: i % 2 == 0 ? ann : ben, expected: .any) }
        try expect(try store.read(from: 2, maxCount: 3).map(\.position) == [2, 3, 4], "read from a position, at most maxCount")
        try expect(try store.read(from: 7, maxCount: 10).isEmpty, "read past the head is empty")
        try expect(try store.read(stream: ann, from: 2, maxCount: .max).map(\.position) == [3, 5], "read a stream from a version")
        try expect(try store.read(stream: ben, from: 1, maxCount: 2).map(\.streamVersion) == [1, 2], "read a stream, at most maxCount")
        let opened = try store.read(stream: ann, from: 1, maxCount: 1)
        try expect(opened.first?.payload == Array(#"{"n":1}"#.utf8), "payloads read back opened")
        let snapshot = try store.read { s in (try s.head()?.position, try s.read(from: 1, maxCount: .max).count, try s.read(stream: ben).count) }
        try expect(snapshot == (6, 6, 3), "a snapshot reads the same log")
    }

    func writeCommits(_ store: Store) throws {
        let table = try store.projectionTable(named: "contract-checkpoints")
        let ann = try StreamID("ann")
        let recorded = try store.write(shredding: { _ in }) { w -> [RecordedEvent] in
            let recorded = try w.append([try event(), try event()], to: ann, expected: .noStream)
            try w.table(table).put(Array("checkpoint".utf8), [UInt8(recorded.last!.position)])
            try expect(w.headPosition == 2 && (try w.version(of: ann)) == 2, "a write reads its own appends")
            try expect(try w.readToHead(from: 1, maxCount: 10).count == 2, "readToHead reads up to the write's head")
            try expect(try w.position(of: recorded[1].eventID) == 2, "a write finds its own appends' event ids")
            try expect(try w.position(of: UUID.newEventID()) == nil, "a write finds no position for an unknown event id")
            return recorded
        }
        try expect(recorded.map(\.position) == [1, 2] && recorded[0].payload != nil, "appends in a write are returned as recorded")
        let stored = try store.read { s in try s.table(table).get(Array("checkpoint".utf8)) }
        try expect(stored == [2] && (try store.head()?.position) == 2, "the projection and the events committed together")
    }

    func failedWrite(_ store: Store) throws {
        let table = try store.projectionTable(named: "contract-checkpoints")
        do {
            try store.write(shredding: { _ in }) { w in
                try w.append([try event()], to: try StreamID("ann"), expected: .noStream)
                try w.table(table).put(Array("checkpoint".utf8), [1])
                throw Refused()
            }
            throw ContractViolation("a write whose body threw committed")
        } catch is Refused {}
        try expect(try store.head() == nil, "no event of a failed write is stored")
        try expect(try store.read { s in try s.table(table).get(Array("checkpoint".utf8)) } == nil, "no projection of a failed write is stored")
    }

    func tables(_ store: Store) throws {
        let table = try store.projectionTable(named: "contract-table")
        let other = try store.projectionTable(named: "contract-other")
        try store.write(shredding: { _ in }) { w in
            for key in ["b", "a\u{0}2", "a\u{0}1", "c"] { try w.table(table).put(Array(key.utf8), Array(key.uppercased().utf8)) }
            try w.table(other).put(Array("a".utf8), [9])
        }
        func keys(_ s: some EventStoreSnapshot, from: String = "", prefix: String? = nil) throws -> [String] {
            var out: [String] = []
            if let prefix {
                try s.table(table).forEach(prefix: Array(prefix.utf8)) { key, _ in out.append(String(decoding: Array(key), as: UTF8.self)) }
            } else {
                try s.table(table).forEach(from: Array(from.utf8)) { key, _ in
                    out.append(String(decoding: Array(key), as: UTF8.self))
                    return true
                }
            }
            return out
        }
        try store.read { s in
            try expect(try keys(s) == ["a\u{0}1", "a\u{0}2", "b", "c"], "entries in byte order")
            try expect(try keys(s, from: "a\u{0}2") == ["a\u{0}2", "b", "c"], "entries from a key on")
            try expect(try keys(s, prefix: "a\u{0}") == ["a\u{0}1", "a\u{0}2"], "entries under a prefix")
            try expect(try s.table(other).get(Array("a".utf8)) == [9] && s.table(other).get(Array("b".utf8)) == nil, "tables are apart")
            try expect(try s.table(table).storedBytes() > 0, "a table with entries takes room")
            do {
                try s.table(table).put(Array("d".utf8), [1])
                throw ContractViolation("a snapshot's table took a write")
            } catch is ContractViolation { throw ContractViolation("a snapshot's table took a write") } catch {}
        }
        try store.write(shredding: { _ in }) { w in
            try w.table(table).delete(Array("b".utf8))
            try w.table(table).delete(Array("absent".utf8))
            try w.table(other).removeAll()
        }
        try store.read { s in
            try expect(try keys(s) == ["a\u{0}1", "a\u{0}2", "c"], "a deleted entry is gone")
            try expect(try s.table(other).get(Array("a".utf8)) == nil, "removeAll empties the table")
        }
    }

    /// Every read in a write transaction sees the writes before it, whichever way the store sends
    /// them (PostgreSQL's keeps them and sends them together), and the commit stores exactly them.
    func ownWrites(_ store: Store) throws {
        let table = try store.projectionTable(named: "contract-own")
        let other = try store.projectionTable(named: "contract-own-other")
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        func keys(_ t: any ProjectionTable, prefix: String = "") throws -> [String] {
            var out: [String] = []
            try t.forEach(prefix: bytes(prefix)) { key, value in
                out.append(String(decoding: Array(key), as: UTF8.self) + "=" + String(decoding: Array(value), as: UTF8.self))
            }
            return out
        }
        try store.write(shredding: { _ in }) { w in
            try w.table(table).put(contentsOf: [(bytes("a1"), bytes("x")), (bytes("a2"), bytes("x")), (bytes("b1"), bytes("x"))])
            try w.table(other).put(bytes("a1"), bytes("other"))
        }
        let ann = try StreamID("own-ann"), ben = try StreamID("own-ben")
        _ = try store.append([try event()], to: ann, expected: .noStream)
        try store.write(shredding: { _ in }) { w in
            try w.prefetchVersions(of: [ann, ben])
            try expect(try w.version(of: ann) == 1 && w.version(of: ben) == 0, "versions read ahead")
            try w.append([try event(), try event()], to: ann, expected: .exact(1))
            try w.append([try event()], to: ben, expected: .noStream)
            try w.prefetchVersions(of: [ann, ben])
            try expect(try w.version(of: ann) == 3 && w.version(of: ben) == 1, "versions after the transaction's appends")
            let t = w.table(table)
            try expect(try t.get(bytes("a1")) == bytes("x"), "a committed entry is read")
            try t.put(bytes("a1"), bytes("y"))
            try expect(try t.get(bytes("a1")) == bytes("y") && w.table(table).get(bytes("a1")) == bytes("y"), "a write is read back, by any table of the transaction")
            try t.delete(bytes("a2"))
            try expect(try t.get(bytes("a2")) == nil, "a deleted entry reads as none")
            try t.prefetch([bytes("a1"), bytes("a2"), bytes("b1"), bytes("absent")])
            try expect(try t.get(bytes("a1")) == bytes("y") && t.get(bytes("a2")) == nil, "reading ahead keeps the transaction's writes")
            try expect(try t.get(bytes("b1")) == bytes("x") && t.get(bytes("absent")) == nil, "entries read ahead")
            try t.put(bytes("a3"), bytes("new"))
            try expect(try keys(t) == ["a1=y", "a3=new", "b1=x"], "a range read sees the writes before it: \(try keys(t))")
            try t.put(bytes("b2"), bytes("gone"))
            try t.removeAll(prefix: bytes("b"))
            try expect(try t.get(bytes("b1")) == nil && t.get(bytes("b2")) == nil, "a prefix removed takes the entries written before it")
            try t.put(bytes("b3"), bytes("after"))
            try t.put(bytes("a3"), bytes("kept"))
            try t.put(contentsOf: [(bytes("a3"), bytes("many")), (bytes("a4"), bytes("many"))])
            try expect(try t.get(bytes("a3")) == bytes("many"), "a later write of many entries wins over an earlier one")
            try t.put(bytes("a4"), bytes("last"))
            try expect(try w.table(other).get(bytes("a1")) == bytes("other"), "tables stay apart")
            try w.table(other).put(bytes("z"), bytes("lost"))
            try w.table(other).removeAll()
            try w.table(other).put(bytes("a1"), bytes("again"))
            // More writes than a store may keep unsent: the first ones are still read back.
            for n in 0..<2_500 { try t.put(bytes("m\(n)"), bytes("\(n)")) }
            try t.delete(bytes("m0"))
            try expect(try t.get(bytes("m1")) == bytes("1") && t.get(bytes("m0")) == nil && t.get(bytes("m2499")) == bytes("2499"), "many writes read back")
        }
        try store.read { s in
            try expect(try keys(s.table(table)).filter { !$0.hasPrefix("m") } == ["a1=y", "a3=many", "a4=last", "b3=after"], "the commit stores the transaction's writes: \(try keys(s.table(table)))")
            try expect(try keys(s.table(table), prefix: "m").count == 2_499, "every one of many writes is stored")
            try expect(try keys(s.table(other)) == ["a1=again"], "removeAll then a write: \(try keys(s.table(other)))")
        }
        // A write that fails after writes read back leaves none of them.
        do {
            try store.write(shredding: { _ in }) { w in
                try w.table(table).put(bytes("a1"), bytes("failed"))
                try expect(try w.table(table).get(bytes("a1")) == bytes("failed"), "read back before the failure")
                throw ContractViolation("the write's own failure")
            }
        } catch let violation as ContractViolation where "\(violation)".contains("own failure") {}
        try expect(try store.read { s in try s.table(table).get(bytes("a1")) } == bytes("y"), "a failed write's entries are not stored")
    }

    func replay(_ store: Store) throws {
        let streams = try (0..<5).map { try StreamID("s\($0)") }
        for i in 0..<60 { _ = try store.append([try event()], to: streams[(i * 7) % 5], expected: .any) }
        let check = ReplayCheck(partitions: 3)
        let seen = Seen()
        try store.replay(1..<61, verifying: check) { lane, view in
            seen.add(lane: lane, stream: view.streamID, version: view.streamVersion, position: view.position, payload: view.payload.map(Array.init))
        }
        try check.finish(head: try store.head())
        let all = seen.all
        try expect(all.map(\.position).sorted() == Array(1...60), "every position replayed once")
        for stream in streams {
            let mine = all.filter { $0.stream == stream }
            try expect(Set(mine.map(\.lane)).count == 1, "stream \(stream) stays on one lane")
            try expect(mine.map(\.version) == Array(1...UInt64(mine.count)), "stream \(stream) in version order")
        }
        try expect(all.allSatisfy { $0.payload == Array(#"{"n":1}"#.utf8) }, "payloads opened in the replay")
    }

    func verifies(_ store: Store) throws {
        for i in 0..<10 { _ = try store.append([try event()], to: try StreamID("s\(i % 3)"), expected: .any) }
        let report = try store.verify(expectedHead: nil, progress: nil)
        try expect(report.isIntact, "an intact log verifies: \(report)")
    }

    func shredding(_ store: Store) throws {
        let ann = try StreamID("ann"), ben = try StreamID("ben")
        _ = try store.append([try event()], to: ann, expected: .noStream)
        _ = try store.append([try event()], to: ben, expected: .noStream)
        let sealed = try store.sealBlob([1, 2, 3], for: ann, context: "contract")
        var steps: [ShreddingStep] = []
        try store.write(shredding: { steps.append($0) }) { w in
            let closing = try w.append([try event(closingType)], to: ann, expected: .exact(1))
            try w.close(ann, atMicroseconds: closing[0].envelope.recordedAtMicroseconds)
            try w.destroyKeysOnCommit([ann], atMicroseconds: closing[0].envelope.recordedAtMicroseconds)
        }
        try expect(steps.contains(.committed), "the key is destroyed after the commit")
        try expect(try store.shreddedStreams() == [ann], "the closed stream's key is destroyed, the other's kept")
        try expect(try store.read(stream: ann, from: 1, maxCount: .max).allSatisfy { $0.payload == nil }, "a shredded stream's payloads are unreadable")
        try expect(try store.read(stream: ben, from: 1, maxCount: .max).allSatisfy { $0.payload != nil }, "another stream's payloads still open")
        try expect(try store.openBlob(sealed, for: ann, context: "contract") == nil, "its blobs no longer open")
        try expect(try store.verify(expectedHead: nil, progress: nil).isIntact, "the chain still verifies")
        do {
            _ = try store.append([try event()], to: ann, expected: .any)
            throw ContractViolation("a shredded stream took an event")
        } catch EventLogError.streamShredded(let stream) {
            try expect(stream == ann, "the refusal names the stream")
        }
        try expect(try store.completeShredding(step: { _ in }).isEmpty, "nothing is left pending")
        do {
            try store.write(shredding: { _ in }) { w in try w.destroyKeysOnCommit([ben], atMicroseconds: 0) }
            throw ContractViolation("the key of a stream not closed was destroyed")
        } catch EventLogError.unauthorizedShredding {}
        try expect(try store.shreddedStreams() == [ann], "a refused destruction destroys nothing")
    }

    func blobs(_ store: Store) throws {
        let ann = try StreamID("ann"), ben = try StreamID("ben")
        try store.prepareKey(for: ann)
        try store.prepareKey(for: ben)
        let sealed = try store.sealBlob(Array("photo".utf8), for: ann, context: "photo")
        try expect(try store.openBlob(sealed, for: ann, context: "photo") == Array("photo".utf8), "a blob opens")
        for (stream, context) in [(ben, "photo"), (ann, "state")] {
            do {
                _ = try store.openBlob(sealed, for: stream, context: context)
                throw ContractViolation("a blob opened under \(stream) as \(context)")
            } catch EventLogError.corruptBlob {}
        }
        let a = try store.blobName([1, 2], for: ann, context: "photo")
        try expect(a == (try store.blobName([1, 2], for: ann, context: "photo")), "a blob's name is stable")
        try expect(a != (try store.blobName([1, 2], for: ben, context: "photo")), "a blob's name depends on the stream's key")
    }

    func concurrentAppends(_ store: Store) async throws {
        let results = try await withThrowingTaskGroup(of: (Int, AppendResult).self) { group in
            for i in 0..<16 {
                group.addTask {
                    (i, try await store.append([try event(), try event()], to: try StreamID("s\(i)"), expected: .noStream))
                }
            }
            var out: [Int: AppendResult] = [:]
            for try await (i, result) in group { out[i] = result }
            return out
        }
        let positions = results.values.flatMap(\.positions).sorted()
        try expect(positions == Array(1...32), "the appends took every position once")
        try expect(results.values.allSatisfy { $0.streamVersion == 2 && $0.positions[1] == $0.positions[0] + 1 }, "each append is whole")
        try checkTree(store, "after group commit")
    }

    /// The Merkle tree over the log: grown in the transaction of every append, whatever way it is
    /// made (alone, several in one write transaction, with projections); not by a write that
    /// failed; untouched by shredding (a leaf is the envelope as stored, ciphertext included).
    func tree(_ store: Store) throws {
        try checkTree(store, "of an empty log")
        let ann = try StreamID("ann"), ben = try StreamID("ben")
        for round in 0..<40 {
            _ = try store.append((0...(round % 3)).map { _ in try event() }, to: round % 2 == 0 ? ann : ben, expected: .any)
        }
        try checkTree(store, "after appends alone")
        let table = try store.projectionTable(named: "contract-tree")
        try store.write { w in
            _ = try w.append([try event(), try event()], to: ann, expected: .any)
            _ = try w.append([try event()], to: ben, expected: .any)
            try w.table(table).put(Array("k".utf8), Array("v".utf8))
        }
        try checkTree(store, "after a write transaction of two appends")
        do {
            try store.write { w in
                _ = try w.append([try event()], to: ann, expected: .any)
                throw CancellationError()
            }
        } catch is CancellationError {}
        try checkTree(store, "after a write that failed")
        try store.write { w in
            let closing = try w.append([try event(closingType)], to: ben, expected: .any)
            try w.close(ben, atMicroseconds: closing[0].envelope.recordedAtMicroseconds)
            try w.destroyKeysOnCommit([ben], atMicroseconds: closing[0].envelope.recordedAtMicroseconds)
        }
        try checkTree(store, "after shredding a stream")
        _ = try store.append([try event()], to: ann, expected: .any)
        try checkTree(store, "after an append past the shredded stream")
    }

    /// A ledger of 10,000 events, appended in batches of uneven sizes over several streams: the
    /// inclusion proof of every position, and the consistency proof between every pair of 300
    /// sizes spread over it (the first 100, then every 33rd), all made from the hashes the store
    /// holds (read once), check against the tree hashes the envelopes make.
    func largeTree(_ store: Store) throws {
        let streams = try (0..<7).map { try StreamID("s\($0)") }
        var appended = 0, round = 0
        while appended < 10_000 {
            let count = min(10_000 - appended, [1, 250, 37, 400, 3][round % 5])
            _ = try store.append((0..<count).map { _ in try event() }, to: streams[round % streams.count], expected: .any)
            appended += count
            round += 1
        }
        let (leaves, stored) = try store.read { snapshot in
            let leaves = try snapshot.read(from: 1, maxCount: .max).map { TreeHash.leaf($0.envelope.bytes) }
            return (leaves, try snapshot.treeHashes(at: Array(0..<TreeLayout.storedCount(size: UInt64(leaves.count)))))
        }
        try expect(leaves.count == 10_000, "\(leaves.count) events appended")
        let read: TreeProofs.Reader = { indexes in indexes.map { stored[Int($0)] } }
        // Each size's tree hash from the envelopes alone (the frontier as it grew).
        var frontier = TreeFrontier()
        var roots: [TreeHash] = [TreeHash.empty]
        for leaf in leaves {
            _ = frontier.append(leaf: leaf)
            roots.append(frontier.root)
        }
        let size = UInt64(leaves.count), root = roots[leaves.count]
        try expect(try TreeProofs.root(size: size, read: read) == root, "the stored tree's hash at 10,000 events")
        for (index, leaf) in leaves.enumerated() {
            let proof = try TreeProofs.inclusion(of: UInt64(index), in: size, read: read)
            try expect(TreeProofs.checkInclusion(leaf: leaf, index: UInt64(index), size: size, proof: proof, root: root), "the inclusion proof of position \(index + 1)")
        }
        let sizes = Array(1...100) + Array(stride(from: 133, through: 10_000, by: 33)).prefix(199) + [10_000]
        for (i, old) in sizes.enumerated() {
            for new in sizes[i...] {
                let proof = try TreeProofs.consistency(from: UInt64(old), to: UInt64(new), read: read)
                try expect(
                    TreeProofs.checkConsistency(old: UInt64(old), oldRoot: roots[old], size: UInt64(new), root: roots[new], proof: proof),
                    "the consistency proof from \(old) to \(new) events")
            }
        }
    }

    /// The store's tree is the tree of its envelopes as stored: as many leaves as the head's
    /// position; every stored hash the one the envelopes make; each event's inclusion proof,
    /// made from the stored hashes, checks against the tree's hash.
    func checkTree(_ store: Store, _ when: String) throws {
        try store.read { snapshot in
            let frontier = try snapshot.treeFrontier()
            let envelopes = try snapshot.read(from: 1, maxCount: .max)
            try expect(frontier.size == (try snapshot.head()?.position ?? 0), "\(when): a tree of \(frontier.size) leaves over \(envelopes.count) events")
            var made = TreeFrontier()
            var expected: [TreeHash] = []
            for event in envelopes { expected += made.append(leaf: TreeHash.leaf(event.envelope.bytes)) }
            try expect(made == frontier, "\(when): the tree's edge is not the one the envelopes make")
            let stored = try snapshot.treeHashes(at: Array(0..<UInt64(expected.count)))
            try expect(stored == expected, "\(when): the stored hashes are not the ones the envelopes make")
            let read: TreeProofs.Reader = { try snapshot.treeHashes(at: $0) }
            try expect(try TreeProofs.root(size: frontier.size, read: read) == frontier.root, "\(when): the stored tree's hash")
            for (index, event) in envelopes.enumerated() {
                let proof = try TreeProofs.inclusion(of: UInt64(index), in: frontier.size, read: read)
                try expect(
                    TreeProofs.checkInclusion(
                        leaf: TreeHash.leaf(event.envelope.bytes), index: UInt64(index), size: frontier.size, proof: proof, root: frontier.root),
                    "\(when): the inclusion proof of position \(event.position)")
            }
        }
    }

    func subscription(_ store: Store) async throws {
        let ann = try StreamID("ann")
        for _ in 0..<3 { _ = try await store.append([try event()], to: ann, expected: .any) }
        let received = try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask {
                var seen: [String] = []
                for try await message in store.subscribe(from: 2, batchSize: 1) {
                    switch message {
                    case .event(let event): seen.append("\(event.position)")
                    case .caughtUp:
                        seen.append("caught up")
                        // Committed after the subscriber reached the end: delivered live.
                        _ = try await store.append([try event()], to: ann, expected: .exact(3))
                    }
                    if seen.count == 4 { return seen }
                }
                return seen
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                return ["timed out"]
            }
            let first = try await group.next() ?? []
            group.cancelAll()
            return first
        }
        try expect(received == ["2", "3", "caught up", "4"], "history from position 2, caught up, then the live event: \(received)")
    }

    // MARK: - Helpers

    func event(_ type: String = "favorite-added") throws -> ProposedEvent {
        try ProposedEvent(type: type, payload: Array(#"{"n":1}"#.utf8))
    }

    func expect(_ condition: @autoclosure () throws -> Bool, _ what: String) throws {
        guard try condition() else { throw ContractViolation(what) }
    }
}

/// The error a contract's write body throws to fail its transaction.
private struct Refused: Error {}

/// What a replay's lanes saw, gathered across them.
private final class Seen: @unchecked Sendable {
    struct Entry { let lane: Int; let stream: StreamID; let version: UInt64; let position: UInt64; let payload: [UInt8]? }
    private let lock = NSLock()
    private var entries: [Entry] = []
    func add(lane: Int, stream: StreamID, version: UInt64, position: UInt64, payload: [UInt8]?) {
        lock.withLock { entries.append(Entry(lane: lane, stream: stream, version: version, position: position, payload: payload)) }
    }
    var all: [Entry] { lock.withLock { entries.sorted { $0.position < $1.position } } }
}

/// A store broke a clause of `EventStoreContract`.
public struct ContractViolation: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
