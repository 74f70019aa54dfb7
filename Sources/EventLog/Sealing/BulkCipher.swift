/// Which AES-256-GCM implementation seals and opens payloads in bulk, as `reel about` names it.
public enum BulkCipher {
    /// `libcrypto` (OpenSSL's, loaded on first bulk use), else `swift-crypto`.
    public static var name: String { GCMContext.usesLibcrypto ? "libcrypto" : "swift-crypto" }
}
