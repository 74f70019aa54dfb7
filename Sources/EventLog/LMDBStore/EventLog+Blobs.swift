import Crypto
import Foundation

/// Data kept beside the log, sealed and named under a stream's key.
extension EventLog {
    /// Seals data kept beside the log under the stream's key (see `BlobSealer`); `context` names
    /// its purpose and must be given again to open it.
    public func sealBlob(_ plaintext: [UInt8], for stream: StreamID, context: String) throws -> [UInt8] {
        try wrapped { try BlobSealer.seal(plaintext, stream: stream, context: context, key: try sealingKey(for: stream)) }
    }

    /// A name for data kept beside the log that says nothing once the stream's key is destroyed:
    /// HMAC-SHA256 under the stream's key of `"reel-blob-name/1" ‖ 0x00 ‖ context ‖ 0x00 ‖ bytes`,
    /// as lowercase hex. (A photo's SHA-256 in a database key would outlive the deletion in
    /// LMDB's freed pages, where anyone holding the photo could recognise it.)
    public func blobName(_ bytes: [UInt8], for stream: StreamID, context: String) throws -> String {
        try wrapped {
            let key = try sealingKey(for: stream)
            var message = Array("reel-blob-name/1".utf8) + [0] + Array(context.utf8) + [0]
            message.append(contentsOf: bytes)
            return HMAC<SHA256>.authenticationCode(for: message, using: key).map { String(format: "%02x", $0) }.joined()
        }
    }

    /// Opens a sealed blob; `nil` when the stream's key is destroyed. Throws `corruptBlob` when the
    /// bytes do not authenticate.
    public func openBlob(_ sealed: UnsafeRawBufferPointer, for stream: StreamID, context: String) throws -> [UInt8]? {
        guard let key = try wrapped({ try keyStore.key(for: stream) }) else { return nil }
        do {
            return try BlobSealer.open(sealed, stream: stream, context: context, key: key)
        } catch {
            throw EventLogError.corruptBlob(stream: stream, context: context)
        }
    }
}
