public import Foundation
import Crypto

/// One stored event as it is on disk: its place in the log, its metadata, its sealed payload and
/// its link in the hash chain. `Schemas/ledger-layout.md` gives the exact bytes.
///
/// It keeps one copy of the stored bytes; the scalar fields are read out once, and the byte fields
/// (hashes, nonce, sealed payload) are sliced from the copy when asked for.
public struct Envelope: Sendable, Equatable {
    /// The envelope's bytes exactly as stored (see `Schemas/ledger-layout.md`).
    public let bytes: [UInt8]
    public let position: UInt64
    public let eventID: UUID
    public let streamVersion: UInt64
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let recordedAtMicroseconds: Int64
    /// When the event was first recorded, microseconds since 1970: `recordedAtMicroseconds`, except
    /// for an event moved from another shard (format 2), which keeps the time it was first
    /// recorded there while its `recordedAtMicroseconds` is the time of the move.
    public let firstRecordedAtMicroseconds: Int64
    public let schemaVersion: UInt16
    public let streamID: StreamID
    public let type: String
    private let sealOffset: Int
    private let sealedLength: Int

    public var recordedAt: Date {
        Date(timeIntervalSince1970: TimeInterval(recordedAtMicroseconds) / 1_000_000)
    }

    /// The envelope format: 1, or 2 for an event a move laid on this chain (`firstRecordedAtMicroseconds`).
    public var format: UInt8 { bytes[0] }

    /// The `hash` of the envelope before this one (32 zero bytes at position 1).
    public var previousHash: ChainHash { ChainHash(bytes: Array(bytes[9..<41])) }
    public var sealAlgorithm: UInt8 { bytes[sealOffset] }
    public var nonce: [UInt8] { Array(bytes[(sealOffset + 1)..<(sealOffset + 13)]) }
    /// Ciphertext followed by the 16-byte GCM tag.
    public var sealedPayload: [UInt8] { Array(bytes[(sealOffset + 17)..<(sealOffset + 17 + sealedLength)]) }
    /// SHA-256 of every byte of the envelope before this field.
    public var hash: ChainHash { ChainHash(bytes: Array(bytes[(bytes.count - EnvelopeView.hashSize)...])) }

    /// Decodes an envelope from its stored bytes.
    public init(bytes: UnsafeRawBufferPointer) throws(EnvelopeDecodingError) {
        try self.init(view: EnvelopeView(bytes))
    }

    /// `previous` (the envelope read before this one) lends its stream id and type when they are
    /// the same bytes: a replay then builds and checks them once per run, not once per event.
    package init(view: EnvelopeView, previous: Envelope? = nil) throws(EnvelopeDecodingError) {
        let stream: StreamID
        if let previous, view.streamIDBytes.sameBytes(asUTF8Of: previous.streamID.rawValue) {
            stream = previous.streamID
        } else {
            guard let decoded = view.streamID else { throw EnvelopeDecodingError("stream id is not valid UTF-8") }
            stream = decoded
        }
        let type: String
        if let previous, view.typeBytes.sameBytes(asUTF8Of: previous.type) {
            type = previous.type
        } else {
            guard let decoded = view.type else { throw EnvelopeDecodingError("event type is not valid UTF-8") }
            type = decoded
        }
        bytes = Array(view.bytes)
        position = view.position
        eventID = view.eventID
        streamVersion = view.streamVersion
        recordedAtMicroseconds = view.recordedAtMicroseconds
        firstRecordedAtMicroseconds = view.firstRecordedAtMicroseconds
        schemaVersion = view.schemaVersion
        streamID = stream
        self.type = type
        sealOffset = 77 + view.streamLength + view.typeLength
        sealedLength = view.sealedLength
    }

    public static func == (a: Envelope, b: Envelope) -> Bool { a.bytes == b.bytes }
}

/// Why stored bytes are not an envelope.
public struct EnvelopeDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    package init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A checked, zero-copy reading of envelope bytes; valid as long as the bytes are.
package struct EnvelopeView {
    static let format: UInt8 = 1
    /// An event laid on this chain by a move from another shard: 8 more bytes before the hash,
    /// the time it was first recorded (`Schemas/ledger-layout.md`).
    static let movedFormat: UInt8 = 2
    static let firstRecordedSize = 8
    static let aesGCM: UInt8 = 1
    package static let fixedSize = 126
    static let hashSize = 32
    static let nonceSize = 12
    package static let tagSize = 16

    package let bytes: UnsafeRawBufferPointer
    package let streamLength: Int
    package let typeLength: Int
    package let sealedLength: Int
    /// 0, or `firstRecordedSize` for format 2.
    let trailerSize: Int

    package init(_ bytes: UnsafeRawBufferPointer) throws(EnvelopeDecodingError) {
        self.bytes = bytes
        guard bytes.count >= Self.fixedSize + 2 else { throw EnvelopeDecodingError("\(bytes.count) bytes is too short") }
        switch bytes[0] {
        case Self.format: trailerSize = 0
        case Self.movedFormat: trailerSize = Self.firstRecordedSize
        default: throw EnvelopeDecodingError("unknown envelope format \(bytes[0])")
        }
        streamLength = Int(bytes[75])
        guard streamLength > 0, bytes.count > 77 + streamLength else { throw EnvelopeDecodingError("bad stream id length") }
        typeLength = Int(bytes[76 + streamLength])
        let sealOffset = 77 + streamLength + typeLength
        guard typeLength > 0, bytes.count >= sealOffset + 17 else { throw EnvelopeDecodingError("bad event type length") }
        guard bytes[sealOffset] == Self.aesGCM else { throw EnvelopeDecodingError("unknown seal algorithm \(bytes[sealOffset])") }
        sealedLength = Int(Self.loadU32(bytes, sealOffset + 13))
        guard sealedLength >= Self.tagSize else { throw EnvelopeDecodingError("sealed payload shorter than its tag") }
        let expected = Self.fixedSize + streamLength + typeLength + sealedLength + trailerSize
        guard bytes.count == expected else {
            throw EnvelopeDecodingError("length is \(bytes.count) bytes but its fields add up to \(expected)")
        }
    }

    @inline(__always) static func loadU64(_ b: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(bigEndian: b.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    @inline(__always) static func loadU32(_ b: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bigEndian: b.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) package func slice(_ from: Int, _ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[from..<(from + count)])
    }

    package var position: UInt64 { Self.loadU64(bytes, 1) }
    package var previousHash: UnsafeRawBufferPointer { slice(9, 32) }
    package var eventIDBytes: UnsafeRawBufferPointer { slice(41, 16) }
    package var eventID: UUID { UUID(bytes: eventIDBytes) }
    package var streamVersion: UInt64 { Self.loadU64(bytes, 57) }
    package var recordedAtMicroseconds: Int64 { Int64(bitPattern: Self.loadU64(bytes, 65)) }
    /// The time the event was first recorded: format 2's trailer, else `recordedAtMicroseconds`.
    package var firstRecordedAtMicroseconds: Int64 {
        trailerSize == 0 ? recordedAtMicroseconds : Int64(bitPattern: Self.loadU64(bytes, bytes.count - Self.hashSize - trailerSize))
    }
    package var schemaVersion: UInt16 { UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: 73, as: UInt16.self)) }
    package var streamIDBytes: UnsafeRawBufferPointer { slice(76, streamLength) }
    package var streamID: StreamID? {
        String(validating: streamIDBytes.bindMemory(to: UInt8.self), as: UTF8.self).map(StreamID.init(unchecked:))
    }
    package var typeBytes: UnsafeRawBufferPointer { slice(77 + streamLength, typeLength) }
    var type: String? { String(validating: typeBytes.bindMemory(to: UInt8.self), as: UTF8.self) }
    var sealAlgorithm: UInt8 { bytes[77 + streamLength + typeLength] }
    package var nonce: UnsafeRawBufferPointer { slice(78 + streamLength + typeLength, Self.nonceSize) }
    package var sealedPayload: UnsafeRawBufferPointer { slice(94 + streamLength + typeLength, sealedLength) }
    /// Every byte the hash covers.
    package var hashedBytes: UnsafeRawBufferPointer { slice(0, bytes.count - Self.hashSize) }
    package var hash: UnsafeRawBufferPointer { slice(bytes.count - Self.hashSize, Self.hashSize) }
}

extension UUID {
    package init(bytes: UnsafeRawBufferPointer) {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: bytes) }
        self.init(uuid: raw)
    }

    /// The 16 bytes in RFC 4122 order, as the `event-ids` index keys them.
    package var bytes: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }

    /// The 16 bytes as two big-endian halves: compared as a pair, they order ids as the index does.
    package var orderedHalves: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}

extension Envelope {
    /// Whether envelope bytes end in the SHA-256 of everything before them: as they were sealed.
    public static func hashMatches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count > 32 else { return false }
        let cut = bytes.count - 32
        return ChainHash.sha256(UnsafeRawBufferPointer(rebasing: bytes[..<cut])) { $0.sameBytes(as: UnsafeRawBufferPointer(rebasing: bytes[cut...])) }
    }
}

extension UnsafeRawBufferPointer {
    /// Whether both hold the same bytes (`memcmp`: the generic `elementsEqual` goes byte by byte,
    /// and the verifier compares a hash, a link and a stream id for every event).
    package func sameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        count == other.count && (count == 0 || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }

    /// Whether these are the UTF-8 bytes of `text`.
    package func sameBytes(asUTF8Of text: String) -> Bool {
        var text = text
        return text.withUTF8 { sameBytes(as: UnsafeRawBufferPointer($0)) }
    }
}
