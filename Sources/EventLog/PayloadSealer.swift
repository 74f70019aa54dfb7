import Crypto
import Foundation

/// An event whose payload is sealed under its stream's key, ready for the write transaction.
struct SealedEvent: Sendable {
    let id: UUID
    let idBytes: [UInt8]
    let type: String
    let schemaVersion: UInt16
    let nonce: [UInt8]
    /// Ciphertext ‖ tag.
    let sealed: [UInt8]
}

/// AES-256-GCM sealing of payloads, bound to their event by the associated data
/// `event id ‖ schema version ‖ S ‖ stream id ‖ T ‖ type` (see `Schemas/ledger-layout.md`).
enum PayloadSealer {
    static func associatedData(eventID: [UInt8], schemaVersion: UInt16, stream: StreamID, type: String) -> [UInt8] {
        var aad = eventID
        aad.reserveCapacity(16 + 4 + stream.rawValue.utf8.count + type.utf8.count)
        aad.append(UInt8(schemaVersion >> 8))
        aad.append(UInt8(schemaVersion & 0xff))
        aad.append(UInt8(stream.rawValue.utf8.count))
        aad.append(contentsOf: stream.rawValue.utf8)
        aad.append(UInt8(type.utf8.count))
        aad.append(contentsOf: type.utf8)
        return aad
    }

    static func seal(_ event: ProposedEvent, stream: StreamID, key: SymmetricKey) throws -> SealedEvent {
        let idBytes = event.id.bytes
        let aad = associatedData(eventID: idBytes, schemaVersion: event.schemaVersion, stream: stream, type: event.type)
        guard let nonce = SecureRandom.withBytes(EnvelopeView.nonceSize, { try? AES.GCM.Nonce(data: $0) }) else {
            throw EventLogError.storage(.init(code: .invalid, function: "AES.GCM.Nonce", message: "cannot make a nonce"))
        }
        let box = try AES.GCM.seal(event.payload, using: key, nonce: nonce, authenticating: aad)
        var sealed = [UInt8]()
        sealed.reserveCapacity(box.ciphertext.count + box.tag.count)
        sealed.append(contentsOf: box.ciphertext)
        sealed.append(contentsOf: box.tag)
        return SealedEvent(
            id: event.id, idBytes: idBytes, type: event.type, schemaVersion: event.schemaVersion,
            nonce: Array(box.nonce), sealed: sealed)
    }

    /// Opens the payload of a stored envelope; throws when it does not authenticate.
    static func open(_ view: EnvelopeView, key: SymmetricKey) throws -> [UInt8] {
        // The associated data is two runs of the envelope: the event id, and schema version through type.
        var aad = [UInt8](view.eventIDBytes)
        aad.append(contentsOf: view.slice(73, 4 + view.streamLength + view.typeLength))
        let sealed = view.sealedPayload
        let cut = sealed.count - EnvelopeView.tagSize
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: view.nonce),
            ciphertext: UnsafeRawBufferPointer(rebasing: sealed[..<cut]),
            tag: UnsafeRawBufferPointer(rebasing: sealed[cut...]))
        return Array(try AES.GCM.open(box, using: key, authenticating: aad))
    }
}
