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
        var closes = false
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
            var events: [RecordedEvent] = []
            events.reserveCapacity(rows.count)
            for row in rows {
                let (position, stream, version, id, type, time, bytes) = try row.decode((Int64, String, Int64, UUID, String, Int64, ByteBuffer).self)
                let at = expected + UInt64(events.count)
                guard position == at else { return report(at, .gap, "the next stored position is \(position)") }
                let envelope: Envelope
                do {
                    envelope = try bytes.withUnsafeReadableBytes { try Envelope(bytes: $0) }
                } catch {
                    return report(at, .undecodable, "\(error)")
                }
                guard envelope.position == at else { return report(at, .positionMismatch, "the envelope says position \(envelope.position)") }
                guard envelope.streamID.rawValue == stream, envelope.streamVersion == UInt64(version), envelope.eventID == id,
                    envelope.type == type, envelope.recordedAtMicroseconds == time
                else { return report(at, .indexMismatch, "the row's columns disagree with its envelope") }
                events.append(RecordedEvent(stored: envelope, payload: nil))
            }
            do {
                try check.check(events)
            } catch EventLogError.brokenChain(let problem) {
                expected = problem.position
                return VerificationReport(eventsChecked: problem.position - 1, head: last, problem: problem)
            }
            for event in events {
                streams[event.streamID.rawValue, default: Stream()] = Stream(
                    version: event.streamVersion, lastPosition: event.position, closes: event.type == closingType)
            }
            if let tail = events.last {
                last = LogHead(after: tail.envelope)
                expected = tail.position + 1
            }
            progress?(expected - 1, max(total, expected - 1))
            if rows.count < Self.batch { break }
        }
        let count = expected - 1
        switch (claimed, last) {
        case (nil, nil): break
        case (let claimed?, let actual?) where claimed == actual: break
        case (let claimed?, _):
            return report(count, .headMismatch, "reel_head names position \(claimed.position) but the log ends at \(count)")
        case (nil, _):
            return report(count, .headMismatch, "reel_head names an empty log")
        }
        let stored = try link.run("SELECT stream, version, closed_at IS NOT NULL FROM reel_streams").map {
            try $0.decode((String, Int64, Bool).self)
        }
        if stored.count != streams.count {
            return report(count, .indexMismatch, "\(streams.count) streams in the log but \(stored.count) in reel_streams")
        }
        for (name, version, closed) in stored.sorted(by: { (streams[$0.0]?.lastPosition ?? 0) < (streams[$1.0]?.lastPosition ?? 0) }) {
            guard let seen = streams[name], seen.version == UInt64(version) else {
                return report(count, .indexMismatch, "reel_streams disagrees with the log on stream \(name)")
            }
            if closed && !seen.closes {
                return report(seen.lastPosition, .closedStreams, "reel_streams closes \(name), but its last event is not \(closingType)")
            }
            if seen.closes && !closed {
                return report(seen.lastPosition, .closedStreams, "stream \(name) ends with \(closingType) but reel_streams does not close it")
            }
        }
        if let expectedHead, expectedHead != last?.hash {
            return report(count, .headMismatch, "the chain ends at \(last?.hash.hex ?? "nothing"), not at the expected \(expectedHead.hex)")
        }
        return VerificationReport(eventsChecked: count, head: last, problem: nil)
    }
}
