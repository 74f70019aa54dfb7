import LMDBStore
import Crypto
@_spi(Stores) import EventLog
import Foundation
import ReelTestSupport
import Testing

/// Envelope format 2 (`Schemas/ledger-layout.md`): one stream's envelopes laid anew on another
/// chain by a move keep every field but position, link and recorded-at, and keep when each event
/// was first recorded in 8 more bytes the hash covers; the move's digest is the same on both sides.
@Suite struct MovedEnvelopeTests {
    /// Three events of one stream appended to a real LMDB log, read back.
    private func stored() throws -> [RecordedEvent] {
        let log = try EventLog.open(at: temporaryDirectory())
        let stream = try StreamID("account-moving")
        try log.append(
            (0..<3).map { try ProposedEvent(id: .init(), type: "favorite-added", schemaVersion: 1, payload: Array("{\"n\":\($0)}".utf8)) },
            to: stream, expected: .noStream)
        return try log.read(stream: stream, from: 1, maxCount: 10)
    }

    @Test func laidEnvelopesKeepWhatTheSealAndTheHistoryNeed() throws {
        let source = try stored()
        let head = LogHead(storedPosition: 41, recordedAtMicroseconds: source[2].envelope.recordedAtMicroseconds + 5_000_000, hash: ChainHash(bytes: Array(repeating: 7, count: 32)))
        let laid = try MovedEnvelopes.laid(source.map(\.envelope), after: head, now: 0)
        #expect(laid.map(\.position) == [42, 43, 44])
        #expect(laid[0].previousHash == head.hash && laid[1].previousHash == laid[0].hash && laid[2].previousHash == laid[1].hash)
        for (moved, original) in zip(laid, source) {
            #expect(moved.format == 2 && original.envelope.format == 1)
            #expect(moved.bytes.count == original.envelope.bytes.count + 8)
            // Recorded at the move (the head's time: the clock given is behind it), first recorded as before.
            #expect(moved.recordedAtMicroseconds == head.recordedAtMicroseconds)
            #expect(moved.firstRecordedAtMicroseconds == original.envelope.recordedAtMicroseconds)
            #expect(moved.eventID == original.eventID && moved.streamVersion == original.streamVersion && moved.type == original.type)
            #expect(moved.nonce == original.envelope.nonce && moved.sealedPayload == original.envelope.sealedPayload)
            #expect(moved.bytes.withUnsafeBytes { Envelope.hashMatches($0) })
        }
        #expect(MovedEnvelopes.digest(laid) == MovedEnvelopes.digest(source.map(\.envelope)))
        // Laid again (a later move), the first time recorded stays the first.
        let again = try MovedEnvelopes.laid(laid, after: nil, now: head.recordedAtMicroseconds + 9)
        #expect(again.map(\.firstRecordedAtMicroseconds) == source.map(\.envelope.recordedAtMicroseconds))
        #expect(MovedEnvelopes.digest(again) == MovedEnvelopes.digest(source.map(\.envelope)))
    }

    @Test func theHashCoversTheTimeFirstRecorded() throws {
        let laid = try MovedEnvelopes.laid(try stored().map(\.envelope), after: nil)
        var bytes = laid[1].bytes
        bytes[bytes.count - 33] ^= 1  // the last byte of "first recorded at"
        #expect(!bytes.withUnsafeBytes { Envelope.hashMatches($0) })
        let changed = try bytes.withUnsafeBytes { try Envelope(bytes: $0) }
        #expect(changed.firstRecordedAtMicroseconds == laid[1].firstRecordedAtMicroseconds ^ 1)
        // Its digest changes too: both sides of a move would disagree.
        #expect(MovedEnvelopes.digest([laid[0], changed, laid[2]]) != MovedEnvelopes.digest(laid))
        // A format-2 envelope without its 8 bytes does not decode, nor one of a format not known.
        var short = laid[0].bytes
        short.removeSubrange((short.count - 40)..<(short.count - 32))
        #expect(throws: EnvelopeDecodingError.self) { try short.withUnsafeBytes { try Envelope(bytes: $0) } }
        short[0] = 3
        #expect(throws: EnvelopeDecodingError.self) { try short.withUnsafeBytes { try Envelope(bytes: $0) } }
    }
}
