@_spi(Stores) import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// Verifies a PostgreSQL ledger in one snapshot by the rules of `Schemas/ledger-layout.md` ("A
/// ledger is intact when"), read as `Schemas/postgres-layout.md` says: the envelopes in position
/// order (rules 1–7, with the LMDB store's own checks), each row's columns against its envelope
/// and the uniqueness constraints (rule 9), `reel_head` (rule 8), `reel_streams` (rule 9) and its
/// `closed_at` (rule 10). A problem is reported, not thrown.
struct PostgresVerifier {
    let reader: PostgresReader
    let closingType: String
    /// Rows read at a time.
    static let batch = 8_192

    private struct Stream {
        var version: UInt64 = 0
        var lastPosition: UInt64 = 0
        var lastTime: Int64 = 0
        var closes = false
        /// Its last event is an `account-moved-out`: closed once the move finished (`StreamClosing`).
        var movedOut = false
    }

    func verify(expectedHead: ChainHash?, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport {
        let link = reader.link
        let claimed = try reader.head()
        let total = UInt64(try link.run("SELECT count(*) FROM reel_events").first?.decode(Int64.self) ?? 0)
        let check = ReplayCheck(partitions: 1)
        var streams: [String: Stream] = [:]
        var expected: UInt64 = 1
        var last: LogHead?
        func report(_ position: UInt64, _ rule: VerificationProblem.Rule, _ detail: String) -> VerificationReport {
            VerificationReport(eventsChecked: expected - 1, head: last, problem: VerificationProblem(position: position, rule: rule, detail: detail))
        }
        while true {
            let rows = try link.run(
                """
                SELECT position, stream, stream_version, event_id, type, recorded_at, envelope FROM reel_events
                WHERE position >= \(Int64(clamping: expected)) ORDER BY position LIMIT \(Self.batch)
                """)
            // Row by row, every rule of a row before the next row's: the first problem found is
            // the one at the earliest position, as a walk in order meets it.
            for row in rows {
                let (position, stream, version, id, type, time, bytes) = try row.decode((Int64, String, Int64, UUID, String, Int64, ByteBuffer).self)
                let at = expected
                guard position == at else { return report(at, .gap, "the next stored position is \(position)") }
                let envelope: Envelope
                do {
                    envelope = try bytes.withUnsafeReadableBytes { try Envelope(bytes: $0) }
                } catch {
                    return report(at, .undecodable, "\(error)")
                }
                guard envelope.position == at else { return report(at, .positionMismatch, "the envelope says position \(envelope.position)") }
                do {
                    try check.check([RecordedEvent(stored: envelope, payload: nil)])
                } catch EventLogError.brokenChain(let problem) {
                    return VerificationReport(eventsChecked: at - 1, head: last, problem: problem)
                }
                guard envelope.streamID.rawValue == stream, envelope.streamVersion == UInt64(version), envelope.eventID == id,
                    envelope.type == type, envelope.recordedAtMicroseconds == time
                else { return report(at, .indexMismatch, "the row's columns (stream, stream_version, event_id, type, recorded_at) disagree with its envelope") }
                streams[stream] = Stream(
                    version: envelope.streamVersion, lastPosition: at, lastTime: envelope.recordedAtMicroseconds, closes: envelope.type == closingType,
                    movedOut: envelope.type == StreamClosing.movedOutType)
                last = LogHead(after: envelope)
                expected = at + 1
            }
            progress?(expected - 1, max(total, expected - 1))
            if rows.count < Self.batch { break }
        }
        let count = expected - 1
        switch (claimed, last) {
        case (nil, nil): break
        case (let claimed?, let actual?) where claimed == actual: break
        case (let claimed?, let actual?) where claimed.position == actual.position:
            return report(
                count, .headMismatch,
                "reel_head names position \(count) with hash \(claimed.hash.hex) at \(claimed.recordedAtMicroseconds), but the log ends with hash \(actual.hash.hex) at \(actual.recordedAtMicroseconds)")
        case (let claimed?, _):
            return report(count, .headMismatch, "reel_head names position \(claimed.position) but the log ends at \(count)")
        case (nil, _):
            return report(count, .headMismatch, "reel_head names an empty log")
        }
        let stored = try link.run("SELECT stream, version, closed_at FROM reel_streams").map {
            try $0.decode((String, Int64, Int64?).self)
        }
        if stored.count != streams.count {
            return report(count, .indexMismatch, "\(streams.count) streams in the log but \(stored.count) in reel_streams")
        }
        for (name, version, closed) in stored.sorted(by: { (streams[$0.0]?.lastPosition ?? 0) < (streams[$1.0]?.lastPosition ?? 0) }) {
            guard let seen = streams[name], seen.version == UInt64(version) else {
                return report(count, .indexMismatch, "reel_streams disagrees with the log on stream \(name)")
            }
            if closed != nil && !seen.closes && !seen.movedOut {
                return report(
                    seen.lastPosition, .closedStreams, "reel_streams closes \(name), but its last event is not \(closingType) or \(StreamClosing.movedOutType)")
            }
            if seen.closes && closed == nil {
                return report(seen.lastPosition, .closedStreams, "stream \(name) ends with \(closingType) but reel_streams does not close it")
            }
            if let closed, closed != seen.lastTime {
                return report(seen.lastPosition, .closedStreams, "reel_streams closes \(name) at \(closed), not when its \(seen.closes ? closingType : StreamClosing.movedOutType) event was recorded (\(seen.lastTime))")
            }
        }
        if let expectedHead, expectedHead != last?.hash {
            return report(count, .headMismatch, "the chain ends at \(last?.hash.hex ?? "nothing"), not at the expected \(expectedHead.hex)")
        }
        return VerificationReport(eventsChecked: count, head: last, problem: nil)
    }
}
