import Crypto
import EventLog
import Ledger

/// A token as the store keeps it (`tokens`: digest → record; `Schemas/token-store-layout.md`),
/// integers big-endian:
///
/// ```
/// format u8 (1, or 2 with a kind byte) ‖ [kind u8: 1 link, 2 session; format 2 only] ‖ digest (32) ‖ id (12 ASCII) ‖ created-at i64 µs ‖ revoked u8 (0 live, 1 revoked) ‖
/// revoked-at i64 µs (0 while live) ‖ stream id length u16 ‖ stream id (UTF-8) ‖
/// sealed handle: nonce (12) ‖ ciphertext ‖ GCM tag (16)
/// ```
///
/// The handle is sealed with AES-256-GCM under the secret's `handleKey`, with associated data
/// `"reel-token/1" ‖ 0x00 ‖ id ‖ 0x00 ‖ stream id`: only the bearer's secret opens it, and a
/// record moved under another id or stream no longer does. The digest is the record's own key,
/// kept inside it too, so a record found under a key not its own is seen. An app's token is
/// written in format 1 (as every Reel before kinds wrote it); a link or a session in format 2.
struct TokenRecord: Sendable, Equatable {
    static let format: UInt8 = 1
    static let kindedFormat: UInt8 = 2
    static let nonceSize = 12
    static let tagSize = 16

    let kind: TokenKind
    let digest: [UInt8]
    let id: String
    let createdAt: Int64
    private(set) var revokedAt: Int64?
    let stream: StreamID
    let sealedHandle: [UInt8]

    /// A new token's record, its handle sealed under `secret`.
    init(secret: TokenSecret, kind: TokenKind = .token, id: String, handle: AccountHandle, stream: StreamID, createdAt: Int64) throws {
        self.kind = kind
        digest = secret.digest
        self.id = id
        self.createdAt = createdAt
        revokedAt = nil
        self.stream = stream
        let box = try AES.GCM.seal(
            Array(handle.value.utf8), using: secret.handleKey, authenticating: Self.associatedData(kind: kind, id: id, stream: stream, createdAt: createdAt))
        sealedHandle = Array(box.nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    /// The record `bytes` hold, or `nil` when they are not one (a damaged store).
    init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard let format = bytes.first, format == Self.format || format == Self.kindedFormat else { return nil }
        var at = 1
        if format == Self.kindedFormat {
            // Format 2 exists for the other kinds: an app's token is always format 1.
            guard bytes.count > 1, let kind = TokenKind(byte: bytes[1]), kind != .token else { return nil }
            self.kind = kind
            at = 2
        } else {
            kind = .token
        }
        let fixed = at + 32 + TokenID.length + 8 + 1 + 8 + 2
        guard bytes.count >= fixed + Self.nonceSize + Self.tagSize else { return nil }
        func integer(_ at: Int, _ size: Int) -> UInt64 { bytes[at..<(at + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        digest = Array(bytes[at..<(at + 32)])
        at += 32
        guard let id = String(validating: bytes[at..<(at + TokenID.length)], as: UTF8.self), TokenID.isWellFormed(id) else { return nil }
        self.id = id
        at += TokenID.length
        createdAt = Int64(bitPattern: integer(at, 8))
        at += 8
        let revoked = bytes[at]
        let revokedTime = Int64(bitPattern: integer(at + 1, 8))
        guard revoked <= 1, revoked == 1 || revokedTime == 0 else { return nil }
        revokedAt = revoked == 1 ? revokedTime : nil
        at += 9
        let streamLength = Int(integer(at, 2))
        at += 2
        guard bytes.count >= at + streamLength + Self.nonceSize + Self.tagSize,
            let text = String(validating: bytes[at..<(at + streamLength)], as: UTF8.self),
            let stream = try? StreamID(text)
        else { return nil }
        self.stream = stream
        sealedHandle = Array(bytes[(at + streamLength)...])
    }

    var bytes: [UInt8] {
        var out: [UInt8] = kind == .token ? [Self.format] : [Self.kindedFormat, kind.byte]
        out.reserveCapacity(64 + stream.rawValue.utf8.count + sealedHandle.count)
        out += digest
        out += Array(id.utf8)
        func append(_ value: UInt64, _ size: Int) {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        append(UInt64(bitPattern: createdAt), 8)
        out.append(revokedAt == nil ? 0 : 1)
        append(UInt64(bitPattern: revokedAt ?? 0), 8)
        append(UInt64(stream.rawValue.utf8.count), 2)
        out += Array(stream.rawValue.utf8)
        return out + sealedHandle
    }

    /// The record revoked at `time`; one revoked already keeps its first time.
    func revoked(at time: Int64) -> TokenRecord {
        guard revokedAt == nil else { return self }
        var copy = self
        copy.revokedAt = time
        return copy
    }

    /// The handle, opened with `secret`; `nil` when it does not authenticate (another secret's
    /// record, or changed bytes) or is no handle.
    func handle(openedWith secret: TokenSecret) -> AccountHandle? {
        guard sealedHandle.count >= Self.nonceSize + Self.tagSize,
            let nonce = try? AES.GCM.Nonce(data: sealedHandle.prefix(Self.nonceSize)),
            let box = try? AES.GCM.SealedBox(
                nonce: nonce, ciphertext: sealedHandle.dropFirst(Self.nonceSize).dropLast(Self.tagSize), tag: sealedHandle.suffix(Self.tagSize)),
            let plain = try? AES.GCM.open(
                box, using: secret.handleKey, authenticating: Self.associatedData(kind: kind, id: id, stream: stream, createdAt: createdAt)),
            let text = String(validating: plain, as: UTF8.self)
        else { return nil }
        return try? AccountHandle(text)
    }

    /// The token this record is, for `handle`.
    func token(_ handle: AccountHandle) -> AccessToken {
        AccessToken(id: id, kind: kind, handle: handle, stream: stream, createdAt: createdAt, revokedAt: revokedAt)
    }

    /// Whether the secret is accepted at `time`: not revoked, and within its kind's lifetime.
    func isAccepted(at time: Int64) -> Bool {
        revokedAt == nil && kind.lifetime.map { time - createdAt < $0 && time >= createdAt - 60_000_000 } ?? true
    }

    /// What the sealed handle authenticates besides itself. For a link or a session (format 2)
    /// also the kind and the time of making, so a record changed on disk into another kind, or
    /// made younger, no longer opens (an app's token, format 1, as it always was).
    private static func associatedData(kind: TokenKind, id: String, stream: StreamID, createdAt: Int64) -> [UInt8] {
        let base = Array("reel-token/1".utf8) + [0] + Array(id.utf8) + [0] + Array(stream.rawValue.utf8)
        guard kind != .token else { return base }
        let made = UInt64(bitPattern: createdAt)
        return base + [0, kind.byte] + (0..<8).map { UInt8(truncatingIfNeeded: made >> (56 - 8 * UInt64($0))) }
    }
}
