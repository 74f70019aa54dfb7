/// The last event of the log: where it is, when it was recorded and its hash.
public struct LogHead: Sendable, Equatable {
    public let position: UInt64
    public let recordedAtMicroseconds: Int64
    public let hash: ChainHash

    static let encodedSize = 48

    package init(position: UInt64, recordedAtMicroseconds: Int64, hash: ChainHash) {
        self.position = position
        self.recordedAtMicroseconds = recordedAtMicroseconds
        self.hash = hash
    }

    package init?(bytes: [UInt8]) {
        guard bytes.count == Self.encodedSize else { return nil }
        let (position, micros, hash) = bytes.withUnsafeBytes { b in
            (UInt64(bigEndian: b.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             Int64(bigEndian: b.loadUnaligned(fromByteOffset: 8, as: Int64.self)),
             ChainHash(UnsafeRawBufferPointer(rebasing: b[16..<48])))
        }
        self.init(position: position, recordedAtMicroseconds: micros, hash: hash)
    }

    package var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(Self.encodedSize)
        withUnsafeBytes(of: position.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: recordedAtMicroseconds.bigEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: hash.bytes)
        return out
    }
}
