@_spi(Stores) import EventLog
import Foundation
import Crypto
import LMDB
import Synchronization

/// Checks every rule of `Schemas/ledger-layout.md` ("A ledger is intact when") in one read snapshot,
/// streaming: memory holds three chunks of envelope pointers plus each stream's last version.
///
/// The walk is pipelined. While lane 0 reads chunk k + 2 from the cursor (lane 0 runs on the
/// calling thread, which owns the read transaction) and checks chunk k in position order (links,
/// versions, time), the other lanes hash and parse chunk k + 1: the SHA-256 of each envelope, its
/// layout, whether its stream id is UTF-8 and the hash of that id; lane 0 joins them when it is
/// done. The bytes are the memory map, stable for the read transaction's life. (Reading the cursor
/// between rounds, with the other lanes idle, and fixed shares of the hashing, a full verify of 1M
/// events ran at 1.7–2.0M events/s against 2.1–2.4M in alternated runs on a 2-core machine.)
struct LedgerVerifier {
    let databases: LedgerDatabases
    static let chunkSize = 8_192

    private struct Pending: @unchecked Sendable {
        let position: UInt64
        let bytes: UnsafeRawBufferPointer
    }

    /// What a lane learned about one envelope, order-independent.
    private struct Prepared {
        /// `nil` when the bytes are not an envelope (the serial check re-reads them for the reason).
        var view: EnvelopeView?
        var hashMatches = false
        var streamIsUTF8 = false
        /// The stream id's keyed hash (`IndexDigest.streamHash`), for the versions table too.
        var streamHash: UInt64 = 0
        /// The terms of the `stream-index` and `event-ids` entries this event needs.
        var indexTerm: UInt64 = 0
        var idTerm: UInt64 = 0
        /// Whether the event closes its stream (`closingType`).
        var closes = false
        /// Whether it is an `account-moved-out`, which may close its stream (`StreamClosing`).
        var movedOut = false
    }

    /// The event type whose stream has a `closed-streams` entry, and no other (rule 10).
    static let closingType = "account-deleted"
    static let closingTypeBytes = Array(closingType.utf8)

    /// A chunk of envelopes and, once prepared, what the lanes found (pointers into the map).
    private struct Chunk: @unchecked Sendable {
        var pending: [Pending] = []
        var prepared: [Prepared] = []

        init() {
            pending.reserveCapacity(LedgerVerifier.chunkSize)
            prepared.reserveCapacity(LedgerVerifier.chunkSize)
        }

        static func prepare(_ p: Pending, key: IndexDigest.Key) -> Prepared {
            var out = Prepared()
            guard let view = try? EnvelopeView(p.bytes) else { return out }
            out.view = view
            let stored = view.hash
            out.hashMatches = SHA256.hash(data: view.hashedBytes).withUnsafeBytes { $0.sameBytes(as: stored) }
            let stream = view.streamIDBytes
            out.streamIsUTF8 = stream.allSatisfy { $0 < 0x80 }
                || String(validating: stream.bindMemory(to: UInt8.self), as: UTF8.self) != nil
            out.streamHash = IndexDigest.streamHash(stream, key)
            out.indexTerm = IndexDigest.streamIndexTerm(stream: out.streamHash, version: view.streamVersion, position: p.position, key)
            let id = view.eventIDBytes
            out.idTerm = IndexDigest.eventIDTerm(
                high: UInt64(bigEndian: id.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                low: UInt64(bigEndian: id.loadUnaligned(fromByteOffset: 8, as: UInt64.self)), position: p.position, key)
            let type = view.typeBytes
            out.closes = type.count == LedgerVerifier.closingTypeBytes.count
                && LedgerVerifier.closingTypeBytes.withUnsafeBytes { type.sameBytes(as: $0) }
            out.movedOut = StreamClosing.isMovedOut(type)
            return out
        }
    }

    /// The order-dependent state of the walk. Only one lane at a time uses it (lane 0 of a round).
    ///
    /// Its fields are touched for every event by one lane at a time, with a barrier between rounds:
    /// no dynamic exclusivity check each time (they cost 4% of a verify).
    private final class ChainCheck: @unchecked Sendable {
        let total: UInt64
        @exclusivity(unchecked) var expected: UInt64 = 1
        /// The hash field of the last envelope checked, in the map (valid for the read
        /// transaction), or 32 zero bytes before the first.
        @exclusivity(unchecked) var previousHash = UnsafeRawBufferPointer(ChainCheck.zeroHash)
        @exclusivity(unchecked) var lastTime = Int64.min
        /// Each stream's last version, the position of its last event and whether that closes it.
        @exclusivity(unchecked) var streams = StreamVersionTable()
        @exclusivity(unchecked) var lastHead: LogHead?
        /// What the last round's check found.
        var problem: VerificationReport?
        let key: IndexDigest.Key
        /// The entries the events need in `stream-index` and `event-ids`.
        @exclusivity(unchecked) var indexNeeded = IndexDigest()
        @exclusivity(unchecked) var idsNeeded = IndexDigest()
        /// Walks of the two indexes, taken a step at a time by whichever lane is free.
        var walks: [IndexWalk] = []

        init(total: UInt64, key: IndexDigest.Key) {
            self.total = total
            self.key = key
        }

        nonisolated(unsafe) private static let zeroHash: UnsafeMutableRawBufferPointer = {
            let zeros = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 8)
            zeros.initializeMemory(as: UInt8.self, repeating: 0)
            return zeros
        }()

        func report(_ position: UInt64, _ rule: VerificationProblem.Rule, _ detail: String) -> VerificationReport {
            VerificationReport(
                eventsChecked: expected - 1, head: lastHead,
                problem: VerificationProblem(position: position, rule: rule, detail: detail))
        }

        /// The order-dependent checks of a prepared chunk, in position order.
        func check(_ chunk: Chunk) -> VerificationReport? {
            for i in chunk.pending.indices {
                let key = chunk.pending[i].position
                let found = chunk.prepared[i]
                guard let view = found.view else {
                    do { _ = try EnvelopeView(chunk.pending[i].bytes) } catch { return report(key, .undecodable, "\(error)") }
                    return report(key, .undecodable, "not an envelope")
                }
                if view.position != key { return report(key, .positionMismatch, "the envelope says position \(view.position)") }
                if !found.hashMatches { return report(key, .hashMismatch, "the stored hash is not the SHA-256 of the envelope") }
                if !previousHash.sameBytes(as: view.previousHash) {
                    return report(key, .brokenLink, "the previous hash is not the hash of position \(key - 1)")
                }
                guard found.streamIsUTF8 else { return report(key, .undecodable, "stream id is not UTF-8") }
                let (index, last) = streams.lookup(view.streamIDBytes, hash: found.streamHash)
                let version = view.streamVersion
                if version != last + 1 {
                    let name = String(decoding: view.streamIDBytes, as: UTF8.self)
                    return report(key, .streamVersion, "stream \(name) goes from version \(last) to \(version)")
                }
                let time = view.recordedAtMicroseconds
                if time < lastTime { return report(key, .timeOrder, "recorded-at goes back in time") }
                streams.record(index, version: version, position: key, closes: found.closes, movedOut: found.movedOut)
                lastTime = time
                indexNeeded.add(found.indexTerm)
                idsNeeded.add(found.idTerm)
                previousHash = view.hash
                expected += 1
                if i == chunk.pending.count - 1 {
                    lastHead = LogHead(position: key, recordedAtMicroseconds: time, hash: ChainHash(previousHash))
                }
            }
            return nil
        }

        /// One round: lane 0 reads the next chunk from the cursor (`walk`, on the calling thread,
        /// which owns the read transaction) and checks `checking` (prepared last round), while the
        /// other lanes prepare `preparing`.
        func round(preparing: inout Chunk, checking: Chunk, walk: () -> Void) -> VerificationReport? {
            let count = preparing.pending.count
            preparing.prepared.removeAll(keepingCapacity: true)
            preparing.prepared.append(contentsOf: repeatElement(Prepared(), count: count))
            let pending = preparing.pending
            let key = self.key
            problem = nil
            // Envelopes are prepared in blocks taken in turn, so lane 0 joins in once its own work is
            // done and no lane waits on a fixed share another is still working through. Before the
            // blocks come a step of each index walk that is not done yet: taken first, while lane 0
            // reads and checks, so the round does not end waiting on a long step.
            let blocks = (count + Self.block - 1) / Self.block
            let walks = self.walks.filter { !$0.finished }
            let taken = Atomic<Int>(0)
            preparing.prepared.withUnsafeMutableBufferPointer { buffer in
                let out = DisjointWrites(buffer)
                LanePool.shared.run(lanes: blocks + walks.count == 0 ? 1 : Parallel.maximumLanes) { lane in
                    if lane == 0 {
                        // Reading first starts the cursor's page faults as early as the round does;
                        // a walk problem is reported only after every earlier entry is checked.
                        walk()
                        self.problem = self.check(checking)
                        if self.problem != nil { return }
                    }
                    while true {
                        let unit = taken.wrappingAdd(1, ordering: .relaxed).oldValue
                        if unit < walks.count {
                            // A little more than a chunk: the walks keep pace with the events.
                            walks[unit].step(LedgerVerifier.chunkSize + LedgerVerifier.chunkSize / 8)
                        } else if unit < walks.count + blocks {
                            let start = (unit - walks.count) * Self.block
                            for i in start..<min(count, start + Self.block) { out.buffer[i] = Chunk.prepare(pending[i], key: key) }
                        } else {
                            return
                        }
                    }
                }
            }
            return problem
        }

        /// Envelopes a lane prepares at a time.
        static let block = 256
    }

    /// How the cursor walk ended: at the last entry, at an entry that breaks a rule (reported once
    /// everything before it is checked, as a walk in order would), or with the cursor failing.
    private enum WalkEnd {
        case last
        case problem(VerificationProblem.Rule, String)
        case failure(any Error)
    }

    func verify(_ environment: Environment, expectedHead: ChainHash?, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport {
        try environment.read { txn in
            // A head that does not decode is reported as missing; a page LMDB cannot read is damage,
            // and the transaction is unusable after it, so that is thrown, not swallowed.
            let claimedHead: LogHead?
            do { claimedHead = try databases.head(txn) } catch let error as LMDBError { throw error } catch { claimedHead = nil }
            let walk = ChainCheck(total: UInt64(try txn.count(databases.events)), key: .random())
            func report(_ position: UInt64, _ rule: VerificationProblem.Rule, _ detail: String) -> VerificationReport {
                walk.report(position, rule, detail)
            }

            // The two indexes are walked in key order alongside, a step per round on whichever
            // lane is free; their cursors are opened here, on the transaction's own thread.
            let walked: VerificationReport? = try txn.withCursor(databases.streamIndex) { streamIndex in
                try txn.withCursor(databases.eventIDs) { eventIDs in
                    walk.walks = [
                        IndexWalk(.streamIndex, cursor: streamIndex, key: walk.key), IndexWalk(.eventIDs, cursor: eventIDs, key: walk.key),
                    ]
                    if let problem = try walkEvents(txn, walk, progress: progress) {
                        // An index entry of an earlier event is wrong: that is the first problem.
                        return try firstIndexProblem(txn, walk, before: problem.problem?.position ?? 0) ?? problem
                    }
                    for indexWalk in walk.walks { indexWalk.step(Int.max) }
                    return nil
                }
            }
            if let walked { return walked }
            let count = walk.expected - 1
            let lastHead = walk.lastHead
            let streams = walk.streams
            for indexWalk in walk.walks {
                if let failure = indexWalk.failure { throw failure }
            }
            // Rule 9, entry by entry: what the independent verifier checks as it walks. The digests
            // say whether there is anything to find.
            let indexesMatch = walk.walks[0].digest == walk.indexNeeded && walk.walks[1].digest == walk.idsNeeded
            if !indexesMatch, let problem = try firstIndexProblem(txn, walk, before: count + 1) { return problem }

            switch (claimedHead, lastHead) {
            case (nil, nil): break
            case (let claimed?, let actual?) where claimed == actual: break
            case (let claimed?, _):
                return report(count, .headMismatch, "meta/head names position \(claimed.position) but the log ends at \(count)")
            case (nil, _):
                return report(count, .headMismatch, "meta/head is missing")
            }
            // Rule 9, the rest: no entry more than the events need, and the streams table.
            if !indexesMatch {
                for (name, db) in [("stream-index", databases.streamIndex), ("event-ids", databases.eventIDs)] {
                    let entries = try txn.count(db)
                    if UInt64(entries) != count { return report(count, .indexMismatch, "\(name) has \(entries) entries, expected \(count)") }
                }
                return report(count, .indexMismatch, walk.walks.compactMap(\.malformed).first ?? "stream-index or event-ids holds other entries than the events need")
            }
            let streamCount = try txn.count(databases.streams)
            if streamCount != streams.count {
                return report(count, .indexMismatch, "\(streams.count) streams in the log but \(streamCount) in the streams table")
            }
            for (name, version) in zip(streams.names, streams.versions) {
                let stored = try txn.get(databases.streams, String(decoding: name, as: UTF8.self))
                if stored != version {
                    return report(count, .indexMismatch, "the streams table disagrees with the log on stream \(String(decoding: name, as: UTF8.self))")
                }
            }
            if let problem = try closedStreamsProblem(txn, walk) { return problem }
            if let expectedHead, expectedHead != lastHead?.hash {
                return report(count, .headMismatch, "the chain ends at \(lastHead?.hash.hex ?? "nothing"), not at the expected \(expectedHead.hex)")
            }
            return VerificationReport(eventsChecked: count, head: lastHead, problem: nil)
        }
    }

    /// Walks `events` through the rounds (rules 1-7); the first problem, or `nil` at the end.
    private func walkEvents(_ txn: Transaction, _ walk: ChainCheck, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport? {
        // Three chunks in flight: one read from the cursor, one prepared by the lanes, one
        // checked in order. Reading the next chunk overlaps the hashing of the one before it.
        try txn.withCursor(databases.events) { cursor in
            var reading = Chunk()
            var preparing = Chunk()
            var checking = Chunk()
            var ended: WalkEnd?
            var next: UInt64 = 1
            var started = false
            /// Fills `reading` with up to a chunk of entries, in position order.
            func read() {
                while ended == nil && reading.pending.count < Self.chunkSize {
                    let entry: Cursor.Entry?
                    do {
                        entry = try started ? cursor.next() : cursor.first()
                        started = true
                    } catch {
                        ended = .failure(error)
                        return
                    }
                    guard let e = entry else { ended = .last; return }
                    guard e.key.count == 8 else {
                        ended = .problem(.undecodable, "a key of \(e.key.count) bytes is not a position")
                        return
                    }
                    let key = e.key.loadUnaligned(as: UInt64.self).bigEndian
                    guard key == next else {
                        ended = .problem(.gap, "the next stored position is \(key)")
                        return
                    }
                    reading.pending.append(Pending(position: key, bytes: e.value))
                    next += 1
                }
            }
            read()
            swap(&preparing, &reading)
            while !(preparing.pending.isEmpty && checking.pending.isEmpty) {
                // Lane 0 reads the next chunk into `reading` and checks `checking`; the lanes
                // prepare `preparing`. Then each moves one place on, and the buffer just checked
                // is emptied to be read into next round.
                let problem = walk.round(preparing: &preparing, checking: checking, walk: read)
                if let problem { return problem }
                if !checking.pending.isEmpty { progress?(walk.expected - 1, walk.total) }
                swap(&checking, &preparing)
                swap(&preparing, &reading)
                reading.pending.removeAll(keepingCapacity: true)
            }
            switch ended {
            case .problem(let rule, let detail)?: return walk.report(walk.expected, rule, detail)
            case .failure(let error)?: throw error
            case .last?: return nil
            case nil: preconditionFailure("the walk ended before the cursor reached the last entry")
            }
        }
    }

    /// The first event before `end` whose `stream-index` or `event-ids` entry is missing or names
    /// another position, looked up one by one as `Tools/verify_ledger.py` does. Only run once the
    /// digests disagree, or when the walk stopped at a problem (an index problem of an earlier
    /// event comes first).
    private func firstIndexProblem(_ txn: Transaction, _ walk: ChainCheck, before end: UInt64) throws -> VerificationReport? {
        guard end > 1 else { return nil }
        var found: VerificationReport?
        try txn.withCursor(databases.events) { cursor in
            var entry = try cursor.first()
            var position: UInt64 = 1
            while let e = entry, position < end, found == nil {
                guard let view = try? EnvelopeView(e.value) else { return }
                var key = Array(view.streamIDBytes)
                key.append(0)
                withUnsafeBytes(of: view.streamVersion.bigEndian) { key.append(contentsOf: $0) }
                let name = String(decoding: view.streamIDBytes, as: UTF8.self)
                // The events before it are intact (the walk checked them before it stopped).
                func problem(_ detail: String) -> VerificationReport {
                    VerificationReport(
                        eventsChecked: position - 1, head: walk.lastHead,
                        problem: VerificationProblem(position: position, rule: .indexMismatch, detail: detail))
                }
                if try txn.get(databases.streamIndex, key) != position {
                    found = problem("the stream-index entry for version \(view.streamVersion) of stream \(name) is missing or names another position")
                } else if try txn.get(databases.eventIDs, Array(view.eventIDBytes)) != position {
                    found = problem("the event-ids entry for \(view.eventID.uuidString.lowercased()) is missing or names another position")
                }
                position += 1
                entry = try cursor.next()
            }
        }
        return found
    }

    /// Rule 10: a stream has a `closed-streams` entry when its last event deletes it, may have one
    /// when its last event moved it to another shard (`StreamClosing`), and has none otherwise.
    private func closedStreamsProblem(_ txn: Transaction, _ walk: ChainCheck) throws -> VerificationReport? {
        let count = walk.expected - 1
        var entries = 0
        var problem: VerificationReport?
        try txn.withCursor(databases.closedStreams) { cursor in
            var entry = try cursor.first()
            while let e = entry, problem == nil {
                let name = String(decoding: e.key, as: UTF8.self)
                let index = walk.streams.find(e.key, hash: IndexDigest.streamHash(e.key, walk.key))
                let at = index.map { walk.streams.lastPositions[$0] } ?? count
                if e.value.count != 9 || e.value[0] > 1 {
                    problem = walk.report(at, .closedStreams, "the closed-streams entry of \(name) is malformed")
                } else if index == nil || !(walk.streams.closes[index!] || walk.streams.movedOut[index!]) {
                    problem = walk.report(
                        at, .closedStreams, "closed-streams closes \(name), but its last event is not \(Self.closingType) or \(StreamClosing.movedOutType)")
                } else if walk.streams.closes[index!] {
                    entries += 1
                }
                entry = try cursor.next()
            }
        }
        if let problem { return problem }
        let streams = walk.streams
        if entries != streams.closes.count(where: { $0 }) {
            for index in streams.closes.indices.filter({ streams.closes[$0] }).sorted(by: { streams.lastPositions[$0] < streams.lastPositions[$1] }) {
                if try txn.withValue(databases.closedStreams, String(decoding: streams.names[index], as: UTF8.self), { $0 == nil }) {
                    return walk.report(
                        streams.lastPositions[index], .closedStreams,
                        "stream \(String(decoding: streams.names[index], as: UTF8.self)) ends with \(Self.closingType) but has no closed-streams entry")
                }
            }
        }
        return nil
    }
}

/// One index walked in key order, a step at a time, into a digest of its entries (see
/// `IndexDigest`). One lane at a time steps it: the rounds hand each walk to one lane.
private final class IndexWalk: @unchecked Sendable {
    enum Kind { case streamIndex, eventIDs }
    let kind: Kind
    private let cursor: Cursor
    private let key: IndexDigest.Key
    private(set) var digest = IndexDigest()
    private(set) var finished = false
    private var started = false
    /// The first entry not of the database's shape.
    private(set) var malformed: String?
    private(set) var failure: (any Error)?
    /// The stream id of the last `stream-index` entry (in the map) and its keyed hash: a stream's
    /// entries come together.
    private var lastStream: UnsafeRawBufferPointer?
    private var lastStreamHash: UInt64 = 0

    init(_ kind: Kind, cursor: Cursor, key: IndexDigest.Key) {
        self.kind = kind
        self.cursor = cursor
        self.key = key
    }

    /// Walks up to `limit` more entries.
    func step(_ limit: Int) {
        var walked = 0
        while !finished && walked < limit {
            let entry: Cursor.Entry?
            do {
                entry = try started ? cursor.next() : cursor.first()
                started = true
            } catch {
                failure = error
                finished = true
                return
            }
            guard let e = entry else {
                finished = true
                return
            }
            walked += 1
            let k = e.key
            switch kind {
            case .streamIndex:
                guard e.value.count == 8, k.count >= 10, k[k.count - 9] == 0 else {
                    flag("stream-index holds an entry that is not stream id ‖ 0x00 ‖ version → position")
                    continue
                }
                let stream = UnsafeRawBufferPointer(rebasing: k[..<(k.count - 9)])
                if let lastStream, lastStream.sameBytes(as: stream) {
                } else {
                    lastStream = stream
                    lastStreamHash = IndexDigest.streamHash(stream, key)
                }
                digest.add(
                    IndexDigest.streamIndexTerm(
                        stream: lastStreamHash, version: UInt64(bigEndian: k.loadUnaligned(fromByteOffset: k.count - 8, as: UInt64.self)),
                        position: UInt64(bigEndian: e.value.loadUnaligned(as: UInt64.self)), key))
            case .eventIDs:
                guard e.value.count == 8, k.count == 16 else {
                    flag("event-ids holds an entry that is not a 16-byte id → position")
                    continue
                }
                digest.add(
                    IndexDigest.eventIDTerm(
                        high: UInt64(bigEndian: k.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                        low: UInt64(bigEndian: k.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                        position: UInt64(bigEndian: e.value.loadUnaligned(as: UInt64.self)), key))
            }
        }
    }

    private func flag(_ what: String) {
        if malformed == nil { malformed = what }
        digest.add(0)
    }
}
