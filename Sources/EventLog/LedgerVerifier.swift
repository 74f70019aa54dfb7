import Crypto
import Dispatch
import LMDB

/// Checks every rule of `Schemas/ledger-layout.md` ("A ledger is intact when") in one read snapshot,
/// streaming: memory holds one chunk of envelope pointers plus each stream's last version.
///
/// The cursor walk and the order-dependent checks run on the calling thread; the SHA-256 of each
/// envelope in a chunk is computed on all cores meanwhile (the bytes are the memory map, stable for
/// the read transaction's life).
struct LedgerVerifier {
    let databases: LedgerDatabases
    static let chunkSize = 8_192

    private struct Pending: @unchecked Sendable {
        let position: UInt64
        let bytes: UnsafeRawBufferPointer
    }

    func verify(_ environment: Environment, expectedHead: ChainHash?, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport {
        try environment.read { txn in
            let claimedHead = try? databases.head(txn)
            let total = UInt64(try txn.count(databases.events))
            var expected: UInt64 = 1
            var previousHash = [UInt8](repeating: 0, count: 32)
            var lastTime = Int64.min
            var streams = StreamVersionTable()
            var lastHead: LogHead?
            var chunk: [Pending] = []
            chunk.reserveCapacity(Self.chunkSize)
            var hashOK = [Bool](repeating: true, count: Self.chunkSize)

            func report(_ position: UInt64, _ rule: VerificationProblem.Rule, _ detail: String) -> VerificationReport {
                VerificationReport(
                    eventsChecked: expected - 1, head: lastHead,
                    problem: VerificationProblem(position: position, rule: rule, detail: detail))
            }

            /// Checks a chunk in position order; its hashes were computed in parallel first.
            func check(_ chunk: [Pending]) -> VerificationReport? {
                let lanes = Parallel.lanes(for: chunk.count, threshold: 1)
                hashOK.withUnsafeMutableBufferPointer { ok in
                    let ok = DisjointWrites(ok)
                    let envelopes = chunk
                    DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                        var i = lane
                        while i < envelopes.count {
                            let bytes = envelopes[i].bytes
                            ok.buffer[i] = false
                            if bytes.count > EnvelopeView.hashSize {
                                let body = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - EnvelopeView.hashSize)])
                                let stored = UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - EnvelopeView.hashSize)...])
                                ok.buffer[i] = SHA256.hash(data: body).withUnsafeBytes { $0.elementsEqual(stored) }
                            }
                            i += lanes
                        }
                    }
                }
                for (i, pending) in chunk.enumerated() {
                    let key = pending.position
                    let view: EnvelopeView
                    do { view = try EnvelopeView(pending.bytes) } catch { return report(key, .undecodable, "\(error)") }
                    if view.position != key { return report(key, .positionMismatch, "the envelope says position \(view.position)") }
                    if !hashOK[i] { return report(key, .hashMismatch, "the stored hash is not the SHA-256 of the envelope") }
                    if !view.previousHash.elementsEqual(previousHash) {
                        return report(key, .brokenLink, "the previous hash is not the hash of position \(key - 1)")
                    }
                    guard view.streamID != nil else { return report(key, .undecodable, "stream id is not UTF-8") }
                    let (index, last) = streams.lookup(view.streamIDBytes)
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
                    if i == chunk.count - 1 {
                        lastHead = LogHead(position: key, recordedAtMicroseconds: time, hash: ChainHash(bytes: previousHash))
                    }
                }
                progress?(expected - 1, total)
                return nil
            }

            let walked: VerificationReport? = try txn.withCursor(databases.events) { cursor in
                var next: UInt64 = 1
                var entry = try cursor.first()
                while let e = entry {
                    guard e.key.count == 8 else {
                        if let problem = check(chunk) { return problem }
                        return report(expected, .undecodable, "a key of \(e.key.count) bytes is not a position")
                    }
                    let key = try e.decodeKey(as: UInt64.self)
                    if key != next {
                        if let problem = check(chunk) { return problem }
                        return report(expected, .gap, "the next stored position is \(key)")
                    }
                    chunk.append(Pending(position: key, bytes: e.value))
                    next += 1
                    if chunk.count == Self.chunkSize {
                        if let problem = check(chunk) { return problem }
                        chunk.removeAll(keepingCapacity: true)
                    }
                    entry = try cursor.next()
                }
                return check(chunk)
            }
            if let walked { return walked }
            let count = expected - 1

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
