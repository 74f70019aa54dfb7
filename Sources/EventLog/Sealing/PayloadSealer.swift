import Crypto
import Foundation

/// AES-256-GCM sealing of payloads, bound to their event by the associated data
/// `event id ‖ schema version ‖ S ‖ stream id ‖ T ‖ type` (see `Schemas/ledger-layout.md`):
/// the associated data, and opening. `SealedBatch` seals.
package enum PayloadSealer {
    /// The second run of the associated data: `schema version ‖ S ‖ stream id ‖ T ‖ type` (the
    /// first is the event id). In an envelope the two runs are its bytes 41..<57 and 73..<77+S+T.
    static func header(schemaVersion: UInt16, stream: StreamID, type: String) -> [UInt8] {
        var header = [UInt8]()
        header.reserveCapacity(4 + stream.rawValue.utf8.count + type.utf8.count)
        header.append(UInt8(schemaVersion >> 8))
        header.append(UInt8(schemaVersion & 0xff))
        header.append(UInt8(stream.rawValue.utf8.count))
        header.append(contentsOf: stream.rawValue.utf8)
        header.append(UInt8(type.utf8.count))
        header.append(contentsOf: type.utf8)
        return header
    }

    /// Opens the payload of a stored envelope; throws when it does not authenticate. The associated
    /// data is two runs of the envelope: the event id, and schema version through type.
    package static func open(_ view: EnvelopeView, context: GCMContext) throws -> [UInt8] {
        guard let plaintext = context.open(
            view.sealedPayload, nonce: view.nonce,
            aad1: view.eventIDBytes, aad2: view.slice(73, 4 + view.streamLength + view.typeLength))
        else { throw GCMFailure() }
        return plaintext
    }
}

/// A lane's key schedule for one key, made on the lane's first use (contexts are not shared), and
/// what the lane reuses from one event to the next: the associated-data header of the last type,
/// and (for bulk work) its own buffer of random bytes for nonces, so lanes do not take turns at the
/// shared pool's lock for every event.
struct LaneContext: @unchecked Sendable {
    let key: SymmetricKey
    let bulk: Bool
    private var made: GCMContext?
    private var lastHeader: (type: String, schemaVersion: UInt16, bytes: [UInt8])?
    private var random: [UInt8] = []
    private var used = 0

    init(key: SymmetricKey, bulk: Bool) {
        self.key = key
        self.bulk = bulk
    }

    mutating func context() throws -> GCMContext {
        if let made { return made }
        let context = try GCMContext(key: key, bulk: bulk)
        made = context
        return context
    }

    /// Fills `nonce` (12 bytes) with random bytes never handed out before.
    package mutating func nonce(into nonce: UnsafeMutableRawBufferPointer) {
        let size = EnvelopeView.nonceSize
        precondition(nonce.count == size)
        guard bulk else { return SecureRandom.withBytes(size) { nonce.copyMemory(from: $0) } }
        if used + size > random.count {
            if random.isEmpty { random = [UInt8](repeating: 0, count: 4_092) }  // 341 nonces
            random.withUnsafeMutableBytes { SecureRandom.fill($0) }
            used = 0
        }
        random.withUnsafeBytes { nonce.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[used..<(used + size)])) }
        used += size
    }

    mutating func header(schemaVersion: UInt16, stream: StreamID, type: String) -> [UInt8] {
        if let last = lastHeader, last.type == type, last.schemaVersion == schemaVersion { return last.bytes }
        let bytes = PayloadSealer.header(schemaVersion: schemaVersion, stream: stream, type: type)
        lastHeader = (type, schemaVersion, bytes)
        return bytes
    }
}
