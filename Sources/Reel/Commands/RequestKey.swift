import Crypto
import Failures
public import Foundation
public import Ledger

/// A request's idempotency key (HTTP's `Idempotency-Key`): a client names a change with it, and a
/// retry of the change under the same key appends nothing and answers as the first time did.
///
/// The key becomes the ids of the events the change appends, derived from the account's handle,
/// the key and the event's index, so the log's own event-id index (durable, in the transaction
/// that appends) is what remembers it: no table beside the log, nothing to expire, and it holds
/// across restarts and processes. The handle is part of the derivation: two accounts using the
/// same key never collide, and one cannot find out which keys another used.
public struct RequestKey: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    /// 1 to 255 characters of printable ASCII (space to `~`), else a usage failure.
    public init(_ value: String) throws {
        guard (1...255).contains(value.utf8.count), value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw Failure(.usage, "an idempotency key is 1 to 255 printable ASCII characters; this one has \(Self.describe(value))")
        }
        self.value = value
    }

    public var description: String { value }

    /// The id of the `index`th event (from 0) a change of `handle`'s account appends under this
    /// key: a UUID version 8 of the first 16 bytes of
    /// SHA-256(`reel.idempotency` ‖ 0x00 ‖ handle ‖ 0x00 ‖ key ‖ 0x00 ‖ index in decimal), its
    /// first byte 0x00. Neither a handle nor a key holds a 0x00, so no two inputs read the same.
    ///
    /// The zero byte sorts every derived id before every time-ordered id (UUIDv7 begins with the
    /// milliseconds since 1970, 0x01… since 2005): the event-id index's last key stays the newest
    /// v7 id, so a batch of new v7 ids (an import) is still appended at the index's end without a
    /// lookup each (`LedgerWriter`). 114 bits of the hash are left.
    public func eventID(for handle: AccountHandle, index: Int) -> UUID {
        var input = Array("reel.idempotency".utf8)
        for part in [handle.value, value, String(index)] {
            input.append(0)
            input.append(contentsOf: part.utf8)
        }
        var bytes = Array(SHA256.hash(data: input).prefix(16))
        bytes[0] = 0
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC 9562 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// What is wrong with a refused key, without echoing it (it may be anything a client sent).
    private static func describe(_ value: String) -> String {
        if value.isEmpty { return "none" }
        if value.utf8.count > 255 { return "\(value.utf8.count) bytes" }
        return "a character outside that range"
    }
}
