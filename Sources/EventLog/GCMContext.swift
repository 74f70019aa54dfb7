import CLibCrypto
import Crypto

/// AES-256-GCM under one key whose schedule is set up once and kept for many messages.
///
/// swift-crypto's `AES.GCM` sets the key up again on every call and copies through `Data`: for a
/// 200-byte payload that is about ten times the cost of the cipher. This context (OpenSSL's
/// libcrypto, `EVP_CIPHER_CTX`) is made once per stream run and reused. The bytes it produces are
/// the same AES-256-GCM as before (12-byte nonce, 16-byte tag), so either library opens the other's.
///
/// Not thread-safe: each lane of a parallel batch makes its own. Freeing it wipes the schedule.
final class GCMContext {
    private let context: OpaquePointer

    init(key: SymmetricKey) throws(GCMFailure) {
        precondition(key.bitCount == 256, "payload keys are AES-256")
        guard let made = key.withUnsafeBytes({ reel_gcm_new($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }) else {
            throw GCMFailure()
        }
        context = made
    }

    deinit { reel_gcm_free(context) }

    /// Seals `plaintext` under `nonce` (12 bytes), authenticating `aad1 ‖ aad2`; returns
    /// ciphertext ‖ tag.
    func seal(
        _ plaintext: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        aad1: UnsafeRawBufferPointer, aad2: UnsafeRawBufferPointer
    ) throws(GCMFailure) -> [UInt8] {
        precondition(nonce.count == EnvelopeView.nonceSize)
        let count = plaintext.count
        var ok: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: count + EnvelopeView.tagSize) { buffer, initialized in
            let base = buffer.baseAddress!
            ok = reel_gcm_seal(
                context, Self.bytes(nonce), Self.bytes(aad1), aad1.count, Self.bytes(aad2), aad2.count,
                Self.bytes(plaintext), count, base, base + count)
            initialized = count + EnvelopeView.tagSize
        }
        guard ok == 1 else { throw GCMFailure() }
        return out
    }

    /// Opens `sealed` (ciphertext ‖ 16-byte tag) under `nonce`; `nil` when it does not
    /// authenticate with `aad1 ‖ aad2`.
    func open(
        _ sealed: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        aad1: UnsafeRawBufferPointer, aad2: UnsafeRawBufferPointer
    ) -> [UInt8]? {
        guard nonce.count == EnvelopeView.nonceSize, sealed.count >= EnvelopeView.tagSize else { return nil }
        let count = sealed.count - EnvelopeView.tagSize
        var ok: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: max(count, 1)) { buffer, initialized in
            let base = Self.bytes(sealed)
            ok = reel_gcm_open(
                context, Self.bytes(nonce), Self.bytes(aad1), aad1.count, Self.bytes(aad2), aad2.count,
                base, count, base.map { $0 + count }, buffer.baseAddress!)
            initialized = ok == 1 ? count : 0
        }
        return ok == 1 ? out : nil
    }

    /// A pointer C accepts for possibly empty bytes.
    @inline(__always) private static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}

/// libcrypto refused an operation (out of memory, or a length it cannot take).
struct GCMFailure: Error {}
