import LMDB
import Crypto
import Foundation

/// Seals data kept beside the log (projection state, photos) under a stream's key, so destroying
/// the key makes it unreadable too. Layout: nonce (12) ‖ ciphertext ‖ tag (16); the associated
/// data is `"reel-blob/1" ‖ 0x00 ‖ context ‖ 0x00 ‖ stream id`, so a blob cannot be moved to
/// another stream or purpose.
enum BlobSealer {
    static func associatedData(stream: StreamID, context: String) -> [UInt8] {
        Array("reel-blob/1".utf8) + [0] + Array(context.utf8) + [0] + Array(stream.rawValue.utf8)
    }

    static func seal(_ plaintext: [UInt8], stream: StreamID, context: String, key: SymmetricKey) throws -> [UInt8] {
        guard let nonce = SecureRandom.withBytes(EnvelopeView.nonceSize, { try? AES.GCM.Nonce(data: $0) }) else {
            throw EventLogError.storage(.init(code: .invalid, function: "AES.GCM.Nonce", message: "cannot make a nonce"))
        }
        let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: associatedData(stream: stream, context: context))
        var out = [UInt8]()
        out.reserveCapacity(EnvelopeView.nonceSize + plaintext.count + EnvelopeView.tagSize)
        out.append(contentsOf: box.nonce)
        out.append(contentsOf: box.ciphertext)
        out.append(contentsOf: box.tag)
        return out
    }

    package static func open(_ sealed: UnsafeRawBufferPointer, stream: StreamID, context: String, key: SymmetricKey) throws -> [UInt8] {
        let n = EnvelopeView.nonceSize, t = EnvelopeView.tagSize
        guard sealed.count >= n + t else { throw BlobError() }
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: UnsafeRawBufferPointer(rebasing: sealed[..<n])),
            ciphertext: UnsafeRawBufferPointer(rebasing: sealed[n..<(sealed.count - t)]),
            tag: UnsafeRawBufferPointer(rebasing: sealed[(sealed.count - t)...]))
        return Array(try AES.GCM.open(box, using: key, authenticating: associatedData(stream: stream, context: context)))
    }

    /// Blobs at least this many use libcrypto (`GCMContext`): loading it costs a command a few
    /// milliseconds, more than swift-crypto's setup of the key per blob does for a few hundred.
    package static let bulkThreshold = 1_024

    /// Seals each plaintext as `seal` does, under one cipher context: for many small blobs (a
    /// state's pages of titles), where setting the key up for each would cost more than sealing.
    static func seal(all plaintexts: [[UInt8]], stream: StreamID, context: String, key: SymmetricKey) throws(EventLogError) -> [[UInt8]] {
        do {
            return try sealing(plaintexts, stream: stream, context: context, key: key)
        } catch {
            throw EventLogError.storage(.init(code: .invalid, function: "AES.GCM.seal", message: "\(error)"))
        }
    }

    private static func sealing(_ plaintexts: [[UInt8]], stream: StreamID, context: String, key: SymmetricKey) throws -> [[UInt8]] {
        let cipher = try GCMContext(key: key, bulk: plaintexts.count >= bulkThreshold)
        let aad = associatedData(stream: stream, context: context)
        let n = EnvelopeView.nonceSize, t = EnvelopeView.tagSize
        return try aad.withUnsafeBytes { aad in
            try plaintexts.map { plaintext in
                var out = [UInt8](repeating: 0, count: n + plaintext.count + t)
                try out.withUnsafeMutableBytes { out in
                    SecureRandom.withBytes(n) { UnsafeMutableRawBufferPointer(rebasing: out[..<n]).copyMemory(from: $0) }
                    try plaintext.withUnsafeBytes { plain in
                        try cipher.seal(
                            plain, nonce: UnsafeRawBufferPointer(rebasing: out[..<n]), aad1: aad, aad2: UnsafeRawBufferPointer(start: nil, count: 0),
                            into: UnsafeMutableRawBufferPointer(rebasing: out[n...]))
                    }
                }
                return out
            }
        }
    }

    /// Opens each blob as `open` does, under one cipher context.
    package static func open(all sealed: [[UInt8]], stream: StreamID, context: String, key: SymmetricKey) throws -> [[UInt8]] {
        let cipher = try GCMContext(key: key, bulk: sealed.count >= bulkThreshold)
        let aad = associatedData(stream: stream, context: context)
        let n = EnvelopeView.nonceSize, t = EnvelopeView.tagSize
        return try aad.withUnsafeBytes { aad in
            try sealed.map { blob in
                try blob.withUnsafeBytes { blob in
                    guard blob.count >= n + t,
                        let plain = cipher.open(
                            UnsafeRawBufferPointer(rebasing: blob[n...]), nonce: UnsafeRawBufferPointer(rebasing: blob[..<n]), aad1: aad,
                            aad2: UnsafeRawBufferPointer(start: nil, count: 0))
                    else { throw BlobError() }
                    return plain
                }
            }
        }
    }

    struct BlobError: Error {}
}
