import Crypto
import LMDB

/// Checks every rule of `Schemas/ledger-layout.md` ("A ledger is intact when") in one read snapshot,
/// streaming: memory holds one envelope at a time plus each stream's last version.
struct LedgerVerifier {
    let databases: LedgerDatabases

    func verify(_ environment: Environment, expectedHead: ChainHash?, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport {
        try environment.read { txn in
            let claimedHead = try? databases.head(txn)
            let total = UInt64(try txn.count(databases.events))
            var expected: UInt64 = 1
            var previousHash = ChainHash.zero.bytes
            var lastTime = Int64.min
            var versions: [StreamID: UInt64] = [:]
            var lastHead: LogHead?

            func report(_ position: UInt64, _ rule: VerificationProblem.Rule, _ detail: String) -> VerificationReport {
                VerificationReport(
                    eventsChecked: expected - 1, head: lastHead,
                    problem: VerificationProblem(position: position, rule: rule, detail: detail))
            }

            let walked: VerificationReport? = try txn.withCursor(databases.events) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    guard e.key.count == 8 else { return report(expected, .undecodable, "a key of \(e.key.count) bytes is not a position") }
                    let key = try e.decodeKey(as: UInt64.self)
                    if key != expected { return report(expected, .gap, "the next stored position is \(key)") }
                    let view: EnvelopeView
                    do { view = try EnvelopeView(e.value) } catch let error as EnvelopeDecodingError { return report(key, .undecodable, error.reason) }
                    if view.position != key { return report(key, .positionMismatch, "the envelope says position \(view.position)") }
                    let digest = SHA256.hash(data: view.hashedBytes)
                    let matches = digest.withUnsafeBytes { $0.elementsEqual(view.hash) }
                    if !matches { return report(key, .hashMismatch, "the stored hash is not the SHA-256 of the envelope") }
                    if !view.previousHash.elementsEqual(previousHash) {
                        return report(key, .brokenLink, "the previous hash is not the hash of position \(key - 1)")
                    }
                    guard let stream = view.streamID else { return report(key, .undecodable, "stream id is not UTF-8") }
                    let version = view.streamVersion
                    let last = versions[stream] ?? 0
                    if version != last + 1 {
                        return report(key, .streamVersion, "stream \(stream) goes from version \(last) to \(version)")
                    }
                    versions[stream] = version
                    let time = view.recordedAtMicroseconds
                    if time < lastTime { return report(key, .timeOrder, "recorded-at goes back in time") }
                    lastTime = time
                    previousHash = Array(view.hash)
                    lastHead = LogHead(position: key, recordedAtMicroseconds: time, hash: ChainHash(bytes: previousHash))
                    expected += 1
                    if let progress, key & 0xffff == 0 { progress(key, total) }
                    entry = try cursor.next()
                }
                return nil
            }
            if let walked { return walked }
            let count = expected - 1
            progress?(count, total)

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
            if streamCount != versions.count {
                return report(count, .indexMismatch, "\(versions.count) streams in the log but \(streamCount) in the streams table")
            }
            for (stream, version) in versions where try txn.get(databases.streams, stream.rawValue) != version {
                return report(count, .indexMismatch, "the streams table disagrees with the log on stream \(stream)")
            }
            return VerificationReport(eventsChecked: count, head: lastHead, problem: nil)
        }
    }
}
