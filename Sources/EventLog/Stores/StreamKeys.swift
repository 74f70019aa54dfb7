public import Crypto

/// Where a store finds the streams' keys to open payloads with: the LMDB key store (`keys/`), or a
/// PostgreSQL store's `reel_stream_keys` as one transaction sees it.
@_spi(Stores) public protocol StreamKeys {
    /// The stream's key; `nil` once destroyed (shredded). Throws `missingKey` for a stream that
    /// has neither a key nor a record of its destruction.
    func key(for stream: StreamID) throws -> SymmetricKey?
}
