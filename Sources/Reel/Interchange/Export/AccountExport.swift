import EventLog
import Foundation
import JSONKit
import Ledger

/// One account taken out of the ledger: its settings, saved list and whole decrypted history,
/// with each event's sealed envelope, so the file can be checked without Reel (see
/// `Schemas/export.md` and `Tools/verify_export.py`).
public struct AccountExport: Sendable {
    public static let format = "reel-export/1"

    public let handle: AccountHandle
    public let stream: StreamID
    public let state: AccountState
    public let events: [RecordedEvent]
    /// The log's head when the export was read: the chain segment ends at or before it.
    public let head: LogHead
    public let photo: (PhotoReference, [UInt8])?
    public let exportedAt: Int64
    /// The tree's checkpoint as the export was read, and each event's inclusion proof in it (in
    /// `events`' order); `nil` when the ledger's tree does not reach its head yet.
    public var proofs: (checkpoint: Checkpoint, paths: [[TreeHash]])?
    /// The checkpoint signed, and the key, once the application signed it (`transparency`).
    public var signed: (note: String, key: String)?

    /// The document, as UTF-8 JSON. `details` are catalog details of saved titles, when known.
    /// A payload that is not JSON (which the ledger never writes) is refused, not copied.
    public func document(details: [MediaKey: JSONValue] = [:], generator: String) throws -> [UInt8] {
        // Each history entry is made on its own (payload canonicalised, digested, envelope in
        // base64), on all cores; then the document is put together in one buffer of the right size.
        let entries = try Parallel.map(events, threshold: 512, state: ()) { _, event in try Self.historyEntry(event) }
        var out = JSONBytes()
        out.reserve(entries.reduce(0) { $0 + $1.count + 2 } + state.saved.count * 200 + (photo?.1.count ?? 0) * 4 / 3 + 4_096)
        out.raw("{\n")
        out.member("format", .string(Self.format), first: true)
        out.member("exportedAt", .string(UTCTime.iso(exportedAt)))
        out.member("generator", .string(generator))
        out.member(
            "account",
            [
                "handle": .string(handle.value), "stream": .string(stream.rawValue), "status": .string(state.status.rawValue),
                "openedAt": state.openedAt.map { .string(UTCTime.iso($0)) } ?? .null, "events": .integer(Int64(state.version)),
            ])
        var settings: [String: JSONValue] = [
            "name": state.settings.name.map { .string($0.value) } ?? .null, "language": .string(state.settings.language.value), "photo": .null,
        ]
        if let (reference, bytes) = photo {
            settings["photo"] = [
                "sha256": .string(reference.sha256), "contentType": .string(reference.contentType),
                "bytes": .integer(Int64(reference.bytes)), "width": .integer(Int64(reference.width)),
                "height": .integer(Int64(reference.height)), "data": .string(Data(bytes).base64EncodedString()),
            ]
        }
        out.member("settings", .object(settings))
        out.raw(",\n\"saved\": [")
        for (index, item) in state.saved.items.enumerated() {
            out.raw(index == 0 ? "\n" : ",\n")
            out.value([
                "mediaType": .string(item.key.mediaType.rawValue), "id": .integer(item.key.id),
                "addedAt": .string(UTCTime.iso(item.addedAt)), "position": .integer(Int64(item.position)),
                "details": details[item.key] ?? .null,
            ])
        }
        out.raw("\n],\n\"history\": [")
        for (index, entry) in entries.enumerated() {
            out.raw(index == 0 ? "\n" : ",\n")
            out.bytes(entry)
        }
        out.raw("\n],\n")
        out.member(
            "chain",
            [
                "layout": "reel-ledger/1", "headPosition": .integer(Int64(head.position)), "headHash": .string(head.hash.hex),
                "headRecordedAt": .string(UTCTime.iso(head.recordedAtMicroseconds)),
            ], first: true)
        if let proofs, let signed {
            out.member(
                "transparency",
                [
                    "checkpoint": .string(signed.note), "key": .string(signed.key),
                    "proofs": .array(proofs.paths.map { .array($0.map { .string($0.base64) }) }),
                ])
        }
        out.raw("\n}\n")
        return out.bytes
    }

    /// One history entry: the clear fields, the canonical payload and its digest, the chain
    /// links and the sealed envelope in base64.
    static func historyEntry(_ event: RecordedEvent) throws -> [UInt8] {
        var out = JSONBytes()
        let envelope = event.envelope
        let payload = try canonicalPayload(of: event)
        out.reserve(payload.count + envelope.bytes.count * 4 / 3 + 400)
        out.raw("{\"position\":")
        out.integer(envelope.position)
        out.raw(",\"streamVersion\":")
        out.integer(envelope.streamVersion)
        out.raw(",\"eventId\":\"")
        out.uuid(envelope.eventID)
        out.raw("\",\"type\":")
        out.value(.string(envelope.type))
        out.raw(",\"schemaVersion\":")
        out.integer(UInt64(envelope.schemaVersion))
        out.raw(",\"recordedAt\":\"")
        out.raw(UTCTime.iso(envelope.recordedAtMicroseconds))
        out.raw("\",\"payload\":")
        out.bytes(payload)
        out.raw(",\"payloadSha256\":\"")
        payload.withUnsafeBytes { ChainHash.sha256($0) { out.hex($0) } }
        out.raw("\",\"previousHash\":\"")
        out.hex(envelope.previousHash.bytes)
        out.raw("\",\"hash\":\"")
        out.hex(envelope.hash.bytes)
        out.raw("\",\"envelope\":\"")
        out.base64(envelope.bytes)
        out.raw("\"}")
        return out.bytes
    }

    /// The payload as canonical JSON (keys sorted, no whitespace): what `payloadSha256` hashes.
    static func canonicalPayload(of event: RecordedEvent) throws(ReelError) -> [UInt8] {
        // A favorite's payload as Reel writes it is canonical already.
        if let stored = event.payload, stored.withUnsafeBytes(CanonicalPayload.isCanonicalFavorite) { return stored }
        guard let stored = event.payload, let value = try? JSONValue(parsing: stored) else {
            throw ReelError.undecodableEvent(position: event.position, reason: "its payload is not JSON")
        }
        return value.encoded()
    }
}

/// A JSON document written straight into bytes: the export of 100,000 events must take well
/// under a second, which a tree of values and an encoder do not.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }
    mutating func bytes(_ more: [UInt8]) { bytes.append(contentsOf: more) }
    mutating func value(_ value: JSONValue) { bytes.append(contentsOf: value.encoded()) }

    mutating func integer(_ value: UInt64) {
        if value < 10 {
            bytes.append(0x30 + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var count = 0
            while rest > 0 {
                digits[19 - count] = 0x30 + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// Lowercase hex, two digits a byte.
    mutating func hex(_ raw: some Sequence<UInt8>) { Hex.append(raw, to: &bytes) }

    /// As `uuidString.lowercased()` writes it.
    mutating func uuid(_ id: UUID) { Hex.append(uuid: id, to: &bytes) }

    /// Base64 with padding, as `Data.base64EncodedString()` writes it.
    mutating func base64(_ raw: [UInt8]) { CanonicalBase64.append(raw, to: &bytes) }

    mutating func member(_ name: String, _ value: JSONValue, first: Bool = false) {
        if !first { raw(",\n") }
        self.value(.string(name))
        raw(": ")
        self.value(value)
    }
}
