@_spi(Stores) public import EventLog
import Crypto
import Foundation

/// Data kept beside the log, sealed and named under a stream's key.
extension EventLog {
    /// Seals data kept beside the log under the stream's key (see `BlobSealer`); `context` names
    /// its purpose and must be given again to open it.
    public func sealBlob(_ plaintext: [UInt8], for stream: StreamID, context: String) throws -> [UInt8] {
        try wrapped { try BlobSealing.seal(plaintext, stream: stream, context: context, key: try sealingKey(for: stream)) }
    }

    /// A name for data kept beside the log that says nothing once the stream's key is destroyed:
    /// HMAC-SHA256 under the stream's key of `"reel-blob-name/1" ‖ 0x00 ‖ context ‖ 0x00 ‖ bytes`,
    /// as lowercase hex. (A photo's SHA-256 in a database key would outlive the deletion in
    /// LMDB's freed pages, where anyone holding the photo could recognise it.)
    public func blobName(_ bytes: [UInt8], for stream: StreamID, context: String) throws -> String {
        try wrapped { BlobSealing.name(bytes, context: context, key: try sealingKey(for: stream)) }
    }

    public func sealBlobs(_ plaintexts: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]] {
        if plaintexts.isEmpty { return [] }
        return try wrapped { try BlobSealing.seal(all: plaintexts, stream: stream, context: context, key: try sealingKey(for: stream)) }
    }

    public func openBlobs(_ sealed: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]]? {
        if sealed.isEmpty { return [] }
        guard let key = try wrapped({ try keyStore.key(for: stream) }) else { return nil }
        return try BlobSealing.open(all: sealed, stream: stream, context: context, key: key)
    }

    /// Opens a sealed blob; `nil` when the stream's key is destroyed. Throws `corruptBlob` when the
    /// bytes do not authenticate.
    public func openBlob(_ sealed: RawSpan, for stream: StreamID, context: String) throws -> [UInt8]? {
        guard let key = try wrapped({ try keyStore.key(for: stream) }) else { return nil }
        return try sealed.withUnsafeBytes { try BlobSealing.open($0, stream: stream, context: context, key: key) }
    }
}
