public import Crypto

/// Data kept beside the log, sealed and named under a stream's key: what every store's
/// `sealBlob`, `blobName` and `openBlob` do once it has found the key.
@_spi(Stores) public enum BlobSealing {
    /// Seals `plaintext` (see `BlobSealer`); `context` names its purpose.
    public static func seal(_ plaintext: [UInt8], stream: StreamID, context: String, key: SymmetricKey) throws -> [UInt8] {
        try BlobSealer.seal(plaintext, stream: stream, context: context, key: key)
    }

    /// HMAC-SHA256 under the stream's key of `"reel-blob-name/1" ‖ 0x00 ‖ context ‖ 0x00 ‖ bytes`,
    /// as lowercase hex: a name that says nothing once the key is destroyed.
    public static func name(_ bytes: [UInt8], context: String, key: SymmetricKey) -> String {
        var message = Array("reel-blob-name/1".utf8) + [0] + Array(context.utf8) + [0]
        message.append(contentsOf: bytes)
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in HMAC<SHA256>.authenticationCode(for: message, using: key) {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Seals each of `plaintexts` as `seal` does, with the key set up once.
    public static func seal(all plaintexts: [[UInt8]], stream: StreamID, context: String, key: SymmetricKey) throws -> [[UInt8]] {
        try BlobSealer.seal(all: plaintexts, stream: stream, context: context, key: key)
    }

    /// Opens each of `sealed` as `open` does, with the key set up once.
    public static func open(all sealed: [[UInt8]], stream: StreamID, context: String, key: SymmetricKey) throws -> [[UInt8]] {
        guard let opened = try? BlobSealer.open(all: sealed, stream: stream, context: context, key: key) else {
            throw EventLogError.corruptBlob(stream: stream, context: context)
        }
        return opened
    }

    /// Opens a sealed blob; `corruptBlob` when it does not authenticate under `key` for this
    /// stream and context.
    public static func open(_ sealed: UnsafeRawBufferPointer, stream: StreamID, context: String, key: SymmetricKey) throws -> [UInt8] {
        do {
            return try BlobSealer.open(sealed, stream: stream, context: context, key: key)
        } catch {
            throw EventLogError.corruptBlob(stream: stream, context: context)
        }
    }
}
