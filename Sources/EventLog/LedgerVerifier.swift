import Crypto
import Dispatch
import LMDB

/// Checks every rule of `Schemas/ledger-layout.md` ("A ledger is intact when") in one read snapshot,
/// streaming: memory holds two chunks of envelope pointers plus each stream's last version.
///
/// The walk is pipelined. While one lane checks chunk k in position order (links, versions, time),
/// the other lanes hash and parse chunk k + 1: the SHA-256 of each envelope, its layout, whether its
/// stream id is UTF-8 and the hash of that id. The bytes are the memory map, stable for the read
/// transaction's life.
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
        var streamHash: UInt64 = 0
    }

    /// A chunk of envelopes and, once prepared, what the lanes found (pointers into the map).
    private struct Chunk: @unchecked Sendable {
        var pending: [Pending] = []
        var prepared: [Prepared] = []

        init() {
            pending.reserveCapacity(LedgerVerifier.chunkSize)
            prepared.reserveCapacity(LedgerVerifier.chunkSize)
        }

        static func prepare(_ p: Pending) -> Prepared {
            var out = Prepared()
            guard let view = try? EnvelopeView(p.bytes) else { return out }
            out.view = view
            let stored = view.hash
            out.hashMatches = SHA256.hash(data: view.hashedBytes).withUnsafeBytes { $0.elementsEqual(stored) }
            let stream = view.streamIDBytes
            out.streamIsUTF8 = stream.allSatisfy { $0 < 0x80 }
                || String(validating: stream.bindMemory(to: UInt8.self), as: UTF8.self) != nil
            out.streamHash = StreamVersionTable.hash(stream)
            return out
        }
    }

    /// The order-dependent state of the walk. Only one lane at a time uses it (lane 0 of a round).
    private final class ChainCheck: @unchecked Sendable {
        let total: UInt64
        var expected: UInt64 = 1
        var previousHash = [UInt8](repeating: 0, count: 32)
        var lastTime = Int64.min
        var streams = StreamVersionTable()
        var lastHead: LogHead?
        /// What the last round's check found.
        var problem: VerificationReport?

        init(total: UInt64) { self.total = total }

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
                if !view.previousHash.elementsEqual(previousHash) {
                    return report(key, .brokenLink, "the previous hash is not the hash of position \(key - 1)")
                }
                guard found.streamIsUTF8 else { return report(key, .undecodable, "stream id is not UTF-8") }
                let (index, last) = streams.lookup(view.streamIDBytes, hash: found.streamHash)
                let version = view.streamVersion
                if version != last + 1 {
                    let name = String(decoding: view.streamIDBytes, as: UTF8.self)
                    return report(key, .streamVersion, "stream \(name) goes from version \(last) to \(version)")
                }
                streams.set(index, version)
                let time = view.recordedAtMicroseconds
                if time < lastTime { return report(key, .timeOrder, "recorded-at goes back in time") }
                lastTime = time
                previousHash.withUnsafeMutableBytes { $0.copyMemory(from: view.hash) }
                expected += 1
                if i == chunk.pending.count - 1 {
                    lastHead = LogHead(position: key, recordedAtMicroseconds: time, hash: ChainHash(bytes: previousHash))
                }
            }
            return nil
        }

        /// One round: lane 0 checks `checking` (prepared last round) while the other lanes prepare
        /// `preparing`.
        func round(preparing: inout Chunk, checking: Chunk) -> VerificationReport? {
            let count = preparing.pending.count
            let lanes = count == 0 ? 0 : Parallel.lanes(for: count, threshold: 1)
            preparing.prepared.removeAll(keepingCapacity: true)
            preparing.prepared.append(contentsOf: repeatElement(Prepared(), count: count))
            let pending = preparing.pending
            problem = nil
            preparing.prepared.withUnsafeMutableBufferPointer { buffer in
                let out = DisjointWrites(buffer)
                LanePool.shared.run(lanes: lanes + 1) { lane in
                    if lane == 0 {
                        self.problem = self.check(checking)
                        return
                    }
                    var i = lane - 1
                    while i < count {
                        out.buffer[i] = Chunk.prepare(pending[i])
                        i += lanes
                    }
                }
            }
            return problem
        }
    }

    /// A problem found while the cursor failed: carried out of the walk as the result.
    private struct Walked: Error {
        let report: VerificationReport
        init(_ report: VerificationReport) { self.report = report }

        static func catching(_ body: () throws -> VerificationReport?) throws -> VerificationReport? {
            do { return try body() } catch let walked as Walked { return walked.report }
        }
    }

    func verify(_ environment: Environment, expectedHead: ChainHash?, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport {
        try environment.read { txn in
            let claimedHead = try? databases.head(txn)
            let walk = ChainCheck(total: UInt64(try txn.count(databases.events)))
            func report(_ position: UInt64, _ rule: VerificationProblem.Rule, _ detail: String) -> VerificationReport {
                walk.report(position, rule, detail)
            }

            let walked: VerificationReport? = try Walked.catching { try txn.withCursor(databases.events) { cursor in
                var filling = Chunk()
                var ready = Chunk()
                /// Checks `ready` and prepares `filling`; then `filling` is the next to check.
                func advance() -> VerificationReport? {
                    if let problem = walk.round(preparing: &filling, checking: ready) { return problem }
                    // Progress on the caller's thread (the check ran on whichever lane took it).
                    if !ready.pending.isEmpty { progress?(walk.expected - 1, walk.total) }
                    swap(&filling, &ready)
                    filling.pending.removeAll(keepingCapacity: true)
                    return nil
                }
                /// Everything collected so far checked; `nil` when it is intact.
                func drain() -> VerificationReport? {
                    if let problem = advance() { return problem }
                    return advance()
                }
                /// The cursor's next entry; when it fails (a damaged page), the problems found in
                /// what was read before are reported first, as a walk in order would.
                func step(_ move: () throws -> Cursor.Entry?) throws -> Cursor.Entry? {
                    do {
                        return try move()
                    } catch {
                        if let problem = drain() { throw Walked(problem) }
                        throw error
                    }
                }
                var next: UInt64 = 1
                var entry = try step { try cursor.first() }
                while let e = entry {
                    guard e.key.count == 8 else {
                        if let problem = drain() { return problem }
                        return report(walk.expected, .undecodable, "a key of \(e.key.count) bytes is not a position")
                    }
                    let key = try e.decodeKey(as: UInt64.self)
                    if key != next {
                        if let problem = drain() { return problem }
                        return report(walk.expected, .gap, "the next stored position is \(key)")
                    }
                    filling.pending.append(Pending(position: key, bytes: e.value))
                    next += 1
                    if filling.pending.count == Self.chunkSize, let problem = advance() { return problem }
                    entry = try step { try cursor.next() }
                }
                return drain()
            } }
            if let walked { return walked }
            let count = walk.expected - 1
            let lastHead = walk.lastHead
            let streams = walk.streams

            switch (claimedHead, lastHead) {
            case (nil, nil): break
            case (let claimed?, let actual?) where claimed == actual: break
            case (let claimed?, _):
                return report(count, .headMismatch, "meta/head names position \(claimed.position) but the log ends at \(count)")
            case (nil, _):
                return report(count, .headMismatch, "meta/head is missing")
            }
            if let expectedHead, expectedHead != lastHead?.hash {
                return report(count, .headMismatch, "the chain ends at \(lastHead?.hash.hex ?? "nothing"), not at the expected \(expectedHead.hex)")
            }
            let indexed = try txn.count(databases.streamIndex)
            let ids = try txn.count(databases.eventIDs)
            if UInt64(indexed) != count || UInt64(ids) != count {
                return report(count, .indexMismatch, "\(count) events but \(indexed) stream-index and \(ids) event-id entries")
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
            return VerificationReport(eventsChecked: count, head: lastHead, problem: nil)
        }
    }
}
