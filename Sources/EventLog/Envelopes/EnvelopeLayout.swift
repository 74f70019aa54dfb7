/// Fills an envelope's bytes front to back, as `Schemas/ledger-layout.md` lays them out, and
/// hashes them: what every store writes (LMDB into the page it reserves, PostgreSQL into a value).
/// A struct, not local functions that capture the offset: those made every field a dynamically
/// checked access.
package struct EnvelopeLayout {
    let out: UnsafeMutableRawBufferPointer
    private(set) var offset = 0

    init(_ out: UnsafeMutableRawBufferPointer) { self.out = out }

    /// The size of an envelope of a stream id, a type and a sealed payload (ciphertext ‖ tag) of these sizes.
    package static func size(stream: [UInt8], type: [UInt8], sealed: Int, moved: Bool = false) -> Int {
        EnvelopeView.fixedSize + stream.count + type.count + sealed + (moved ? EnvelopeView.firstRecordedSize : 0)
    }

    /// Writes a whole envelope into `out` (exactly `size` bytes) and returns its hash, which ends it.
    /// `firstRecordedAt`, given only by a move, makes an envelope of format 2 that keeps it.
    package static func write(
        into out: UnsafeMutableRawBufferPointer, position: UInt64, previous: ChainHash, id: [UInt8], streamVersion: UInt64,
        recordedAt: Int64, schemaVersion: UInt16, stream: [UInt8], type: [UInt8], nonce: UnsafeRawBufferPointer,
        sealed: UnsafeRawBufferPointer, firstRecordedAt: Int64? = nil
    ) -> ChainHash {
        var layout = EnvelopeLayout(out)
        layout.integer(firstRecordedAt == nil ? EnvelopeView.format : EnvelopeView.movedFormat)
        layout.integer(position)
        layout.bytes(previous.bytes)
        layout.bytes(id)
        layout.integer(streamVersion)
        layout.integer(recordedAt)
        layout.integer(schemaVersion)
        layout.integer(UInt8(stream.count))
        layout.bytes(stream)
        layout.integer(UInt8(type.count))
        layout.bytes(type)
        layout.integer(EnvelopeView.aesGCM)
        layout.bytes(nonce)
        layout.integer(UInt32(sealed.count))
        layout.bytes(sealed)
        if let firstRecordedAt { layout.integer(firstRecordedAt) }
        let digest = ChainHash.sha256(UnsafeRawBufferPointer(rebasing: out[0..<layout.offset]))
        layout.bytes(digest.bytes)
        precondition(layout.offset == out.count, "envelope layout and size disagree")
        return digest
    }

    package mutating func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { self.bytes($0) }
    }

    package mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        UnsafeMutableRawBufferPointer(rebasing: out[offset..<(offset + bytes.count)]).copyMemory(from: bytes)
        offset += bytes.count
    }

    mutating func integer<I: FixedWidthInteger>(_ value: I) {
        out.storeBytes(of: value.bigEndian, toByteOffset: offset, as: I.self)
        offset += MemoryLayout<I>.size
    }
}
