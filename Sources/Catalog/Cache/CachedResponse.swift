/// One cached answer: the body TMDb sent, when it was stored, until when it is fresh, and its
/// ETag for revalidation. Times are microseconds since 1970 (UTC).
public struct CachedResponse: Sendable, Equatable {
    public let key: String
    public let endpoint: String
    public let storedAt: Int64
    public let expiresAt: Int64
    public let etag: String?
    public let body: [UInt8]

    public init(key: String, endpoint: String, storedAt: Int64, expiresAt: Int64, etag: String?, body: [UInt8]) {
        self.key = key
        self.endpoint = endpoint
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.etag = etag
        self.body = body
    }

    public func isFresh(at now: Int64) -> Bool { now < expiresAt }

    /// The same answer, fresh again until `expiresAt` (a 304 revalidation).
    public func refreshed(at now: Int64, until expiresAt: Int64, etag newTag: String?) -> CachedResponse {
        CachedResponse(key: key, endpoint: endpoint, storedAt: now, expiresAt: expiresAt, etag: newTag ?? etag, body: body)
    }

    private static let magic: [UInt8] = [0x52, 0x43, 0x01]  // "RC", format 1

    /// `RC 01 | storedAt i64 | expiresAt i64 | u16 key | u8 endpoint | u16 etag | body`, big-endian.
    func encoded() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(body.count + key.utf8.count + 64)
        func int64(_ v: Int64) { withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) } }
        func string16(_ s: String) {
            let bytes = Array(s.utf8.prefix(Int(UInt16.max)))
            withUnsafeBytes(of: UInt16(bytes.count).bigEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: bytes)
        }
        int64(storedAt)
        int64(expiresAt)
        string16(key)
        let e = Array(endpoint.utf8.prefix(255))
        out.append(UInt8(e.count))
        out.append(contentsOf: e)
        string16(etag ?? "")
        out.append(contentsOf: body)
        return out
    }

    /// Nil for bytes that are not a cache entry of this format (treated as a miss).
    init?(decoding bytes: UnsafeRawBufferPointer) {
        var at = 0
        func take(_ n: Int) -> UnsafeRawBufferPointer? {
            guard at + n <= bytes.count else { return nil }
            defer { at += n }
            return UnsafeRawBufferPointer(rebasing: bytes[at..<at + n])
        }
        func int64() -> Int64? { take(8).map { $0.reduce(Int64(0)) { $0 << 8 | Int64($1) } } }
        func string16() -> String? {
            guard let n = take(2).map({ Int($0[0]) << 8 | Int($0[1]) }), let b = take(n) else { return nil }
            return String(decoding: b, as: UTF8.self)
        }
        guard let m = take(3), Array(m) == Self.magic,
              let stored = int64(), let expires = int64(), let key = string16(),
              let n = take(1).map({ Int($0[0]) }), let e = take(n), let etag = string16() else { return nil }
        self.init(
            key: key, endpoint: String(decoding: e, as: UTF8.self), storedAt: stored, expiresAt: expires,
            etag: etag.isEmpty ? nil : etag, body: Array(UnsafeRawBufferPointer(rebasing: bytes[at...]))
        )
    }
}
