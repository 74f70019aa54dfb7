import LMDBStore
import Crypto
@_spi(Stores) import EventLog
import Foundation
import LMDB
import ReelTestSupport
import Testing

/// Payloads are sealed with libcrypto's AES-256-GCM (a reused key schedule); the bytes must be
/// exactly what swift-crypto's `AES.GCM` makes and opens, so ledgers written before the switch and
/// any independent reader agree with Reel.
@Suite struct SealingTests {
    /// The stream's key as the key store holds it (`0x02 ‖ 60 bytes`, wrapped), opened under the
    /// data directory's keyring (`keyrings/PAIR.keyring`, the library's default place).
    private func key(_ dir: String, _ stream: StreamID) throws -> SymmetricKey {
        let keys = try Environment.open(at: dir + "/keys")
        let db = try keys.database(named: "stream-keys", String.self, [UInt8].self)
        let meta = try keys.database(named: "meta", String.self, [UInt8].self)
        let stored = try #require(try keys.read { try $0.get(db, stream.rawValue) })
        let pair = try #require(try keys.read { try $0.get(meta, "pair") })
        #expect(stored.count == 61 && stored[0] == 2)
        let store = UUID(uuid: (pair[0], pair[1], pair[2], pair[3], pair[4], pair[5], pair[6], pair[7], pair[8], pair[9], pair[10], pair[11], pair[12], pair[13], pair[14], pair[15]))
        let opened = try #require(try KeyringFile(directory: dir + "/keyrings", store: store).opening(Array(stored[1...]), stream: stream.rawValue))
        return SymmetricKey(data: opened)
    }

    /// The associated data of `Schemas/ledger-layout.md`: event id ‖ schema version ‖ S ‖ stream ‖ T ‖ type.
    private func associatedData(_ e: Envelope) -> [UInt8] {
        var aad = withUnsafeBytes(of: e.eventID.uuid) { Array($0) }
        aad += [UInt8(e.schemaVersion >> 8), UInt8(e.schemaVersion & 0xff)]
        aad += [UInt8(e.streamID.rawValue.utf8.count)] + Array(e.streamID.rawValue.utf8)
        aad += [UInt8(e.type.utf8.count)] + Array(e.type.utf8)
        return aad
    }

    @Test func bulkWorkUsesLibcryptoHere() {
        // The machines Reel is built and tested on have libcrypto 3 (libssl3): the bulk path is tested.
        #expect(EventLog.bulkCipher == "libcrypto")
    }

    @Test func swiftCryptoOpensWhatReelSealsAndSealsTheSameBytes() throws {
        let dir = temporaryDirectory()
        let log = try EventLog.open(at: dir)
        let stream = try StreamID("ann")
        // One byte, a typical payload, one past a 16-byte block, and large enough for the lanes.
        let payloads: [[UInt8]] = [[0x7b], Array(repeating: 0x61, count: 200), Array(repeating: 0x62, count: 17)]
            + (0..<1_000).map { i in Array("{\"n\":\(i)}".utf8) }
        try log.append(try payloads.map { try ProposedEvent(type: "favorite-added", payload: $0) }, to: stream)
        let key = try key(dir, stream)
        let envelopes = try log.envelopes(from: 1, maxCount: 2_000)
        #expect(envelopes.count == payloads.count)
        for (envelope, payload) in zip(envelopes, payloads) {
            let sealed = envelope.sealedPayload
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: envelope.nonce), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            #expect(Array(try AES.GCM.open(box, using: key, authenticating: associatedData(envelope))) == payload)
            // GCM is deterministic for a key and nonce: swift-crypto seals to the very same bytes.
            let again = try AES.GCM.seal(payload, using: key, nonce: AES.GCM.Nonce(data: envelope.nonce), authenticating: associatedData(envelope))
            #expect(Array(again.ciphertext) + Array(again.tag) == sealed)
        }
        #expect(try log.read(stream: stream).map(\.payload) == payloads)
        #expect(Set(envelopes.map(\.nonce)).count == payloads.count)
    }

    /// One event is opened by swift-crypto, a batch of 100 by libcrypto (bulk): both refuse.
    @Test(arguments: [1, 100])
    func aChangedCiphertextOrTagDoesNotAuthenticate(_ batch: Int) throws {
        for offsetFromEnd in [33, 33 + 15, 33 + 16] {  // the tag's last byte, its first, the ciphertext's last
            let dir = temporaryDirectory()
            let log = try EventLog.open(at: dir)
            let stream = try StreamID("ann")
            let proposed = try (0..<batch).map { _ in try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":550}"#.utf8)) }
            try log.append(proposed, to: stream)
            let events = try log.environment.database(named: "events", UInt64.self, [UInt8].self)
            try log.environment.write { txn in
                var bytes = try #require(try txn.get(events, 1))
                bytes[bytes.count - offsetFromEnd] ^= 0x80
                try txn.put(events, 1, bytes)
            }
            #expect {
                _ = try log.read(stream: stream)
            } throws: { error in
                guard case EventLogError.corruptEnvelope(let position, let reason) = error else { return false }
                return position == 1 && reason.contains("does not authenticate")
            }
        }
    }
}
