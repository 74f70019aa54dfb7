import Foundation
import CLibCrypto
package import Crypto

/// AES-256-GCM under one key, for sealing and opening payloads.
///
/// swift-crypto's `AES.GCM` sets the key up again on every call and copies through `Data`: for a
/// 200-byte payload that is about ten times the cost of the cipher. For bulk work (a batch of
/// `bulkThreshold` events or more) this context uses OpenSSL's libcrypto instead, whose
/// `EVP_CIPHER_CTX` keeps the key schedule from one message to the next. libcrypto is loaded on
/// first bulk use (see `Sources/CLibCrypto/shim.h`), so small commands start as fast as before;
/// where it cannot be loaded, or `REEL_LIBCRYPTO=off`, swift-crypto does everything. Both produce
/// the same AES-256-GCM bytes (12-byte nonce, 16-byte tag), so either opens what the other sealed.
///
/// Not thread-safe: each lane of a parallel batch makes its own. Freeing it wipes the schedule.
package final class GCMContext {
    /// Batches at least this large use libcrypto.
    package static let bulkThreshold = 64

    private enum Engine {
        case libcrypto(OpaquePointer)
        case swiftCrypto(SymmetricKey)
    }

    /// libcrypto's function table (immutable once loaded).
    private struct Library: @unchecked Sendable {
        let table: UnsafePointer<reel_libcrypto>
    }

    /// libcrypto's functions, resolved once per process; `nil` when it is not available.
    private static let loaded: Library? = {
        if let setting = getenvString("REEL_LIBCRYPTO"), setting == "off" { return nil }
        let table = UnsafeMutablePointer<reel_libcrypto>.allocate(capacity: 1)
        table.initialize(to: reel_libcrypto())
        guard reel_libcrypto_load(table) == 1 else {
            table.deallocate()
            return nil
        }
        return Library(table: UnsafePointer(table))  // kept for the life of the process, like the library
    }()

    private static var library: UnsafePointer<reel_libcrypto>? { loaded?.table }

    /// Whether bulk work uses libcrypto in this process (loading it if it is not loaded yet).
    static var usesLibcrypto: Bool { library != nil }

    private let engine: Engine

    /// A context for `key`; `bulk` (a batch of `bulkThreshold` or more) asks for libcrypto.
    package init(key: SymmetricKey, bulk: Bool) throws(GCMFailure) {
        precondition(key.bitCount == 256, "payload keys are AES-256")
        guard bulk, let library = Self.library else {
            engine = .swiftCrypto(key)
            return
        }
        guard let made = key.withUnsafeBytes({ reel_gcm_new(library, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }) else {
            throw GCMFailure()
        }
        engine = .libcrypto(made)
    }

    deinit {
        if case .libcrypto(let context) = engine, let library = Self.library { reel_gcm_free(library, context) }
    }

    /// Seals `plaintext` under `nonce` (12 bytes), authenticating `aad1 ‖ aad2`, into `out`:
    /// ciphertext ‖ tag, exactly `plaintext.count + 16` bytes.
    func seal(
        _ plaintext: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        aad1: UnsafeRawBufferPointer, aad2: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) throws(GCMFailure) {
        precondition(nonce.count == EnvelopeView.nonceSize && out.count == plaintext.count + EnvelopeView.tagSize)
        switch engine {
        case .swiftCrypto(let key):
            do {
                let box = try AES.GCM.seal(
                    plaintext, using: key, nonce: try AES.GCM.Nonce(data: nonce), authenticating: Self.joined(aad1, aad2))
                box.ciphertext.withUnsafeBytes { out.copyMemory(from: $0) }
                box.tag.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[plaintext.count...]).copyMemory(from: $0) }
            } catch {
                throw GCMFailure()
            }
        case .libcrypto(let context):
            let base = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let ok = reel_gcm_seal(
                Self.library!, context, Self.bytes(nonce), Self.bytes(aad1), aad1.count, Self.bytes(aad2), aad2.count,
                Self.bytes(plaintext), plaintext.count, base, base + plaintext.count)
            guard ok == 1 else { throw GCMFailure() }
        }
    }

    /// Opens `sealed` (ciphertext ‖ 16-byte tag) under `nonce`; `nil` when it does not
    /// authenticate with `aad1 ‖ aad2`.
    package func open(
        _ sealed: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        aad1: UnsafeRawBufferPointer, aad2: UnsafeRawBufferPointer
    ) -> [UInt8]? {
        guard nonce.count == EnvelopeView.nonceSize, sealed.count >= EnvelopeView.tagSize else { return nil }
        let count = sealed.count - EnvelopeView.tagSize
        switch engine {
        case .swiftCrypto(let key):
            guard let box = try? AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce),
                ciphertext: UnsafeRawBufferPointer(rebasing: sealed[..<count]),
                tag: UnsafeRawBufferPointer(rebasing: sealed[count...]))
            else { return nil }
            return (try? AES.GCM.open(box, using: key, authenticating: Self.joined(aad1, aad2))).map { Array($0) }
        case .libcrypto(let context):
            var ok: Int32 = 0
            let base = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let out = [UInt8](unsafeUninitializedCapacity: max(count, 1)) { buffer, initialized in
                ok = reel_gcm_open(
                    Self.library!, context, Self.bytes(nonce), Self.bytes(aad1), aad1.count, Self.bytes(aad2), aad2.count,
                    base, count, base + count, buffer.baseAddress!)
                initialized = ok == 1 ? count : 0
            }
            return ok == 1 ? out : nil
        }
    }

    /// Opens `sealed` into `buffer` (at least the ciphertext's length): for a replay, which reads
    /// each plaintext in place and needs no array of it. `false` when it does not authenticate.
    package func open(
        _ sealed: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        aad1: UnsafeRawBufferPointer, aad2: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard nonce.count == EnvelopeView.nonceSize, sealed.count >= EnvelopeView.tagSize else { return false }
        let count = sealed.count - EnvelopeView.tagSize
        precondition(buffer.count >= max(count, 1))
        switch engine {
        case .swiftCrypto:
            guard let opened = open(sealed, nonce: nonce, aad1: aad1, aad2: aad2) else { return false }
            opened.withUnsafeBytes { buffer.copyMemory(from: $0) }
            return true
        case .libcrypto(let context):
            let base = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return reel_gcm_open(
                Self.library!, context, Self.bytes(nonce), Self.bytes(aad1), aad1.count, Self.bytes(aad2), aad2.count,
                base, count, base + count, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 1
        }
    }

    private static func joined(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(a.count + b.count)
        out.append(contentsOf: a)
        out.append(contentsOf: b)
        return out
    }

    /// A pointer C accepts for possibly empty bytes.
    @inline(__always) private static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }

    private static func getenvString(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// The cipher refused an operation (out of memory, or a length it cannot take).
package struct GCMFailure: Error, CustomStringConvertible {
    package var description: String { "AES-256-GCM failed (out of memory, or a payload too large)" }
}
