import JSONKit

#if canImport(Glibc)
import Glibc
#endif

/// The payloads of the commonest events read straight from their bytes, as Reel writes them
/// (`JSONValue.encoded`: members sorted, no spaces): `{"id":603,"mediaType":"movie"}` for
/// `favorite-added` and `favorite-removed` at schema version 1.
///
/// A replay spends most of its time on these; building a JSON tree for each is most of that. Only
/// the exact canonical bytes are accepted, for which the general parser reads the same event;
/// anything else (other spacing or order, an id out of range, another type) gives `nil`, and
/// the caller takes the general path, which also words the errors.
public enum CanonicalPayload {
    /// The types read here, and the schema version whose shape they are read in: the fast path
    /// is off when that is not the current version of each.
    static let types = ["favorite-added", "favorite-removed"]
    static let schemaVersion: UInt16 = 1

    static func event(typeBytes type: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) -> DomainEvent? {
        if matches(type, "favorite-added") { return mediaKey(payload).map(DomainEvent.favoriteAdded) }
        if matches(type, "favorite-removed") { return mediaKey(payload).map(DomainEvent.favoriteRemoved) }
        return nil
    }

    /// The canonical bytes of `event`'s payload, the same as `event.payload.encoded()`: written
    /// directly for favorites (an import writes 100,000 of them), through a JSON tree otherwise.
    public static func bytes(of event: DomainEvent) -> [UInt8] {
        func favorite(_ key: MediaKey, addedAt: Int64? = nil, source: String? = nil) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(96)
            out.append(UInt8(ascii: "{"))
            if let addedAt {
                out.append(contentsOf: #""addedAt":""#.utf8)
                out.append(contentsOf: UTCTime.iso(addedAt).utf8)
                out.append(contentsOf: #"","#.utf8)
            }
            out.append(contentsOf: #""id":"#.utf8)
            out.append(contentsOf: String(key.id).utf8)
            out.append(contentsOf: #","mediaType":""#.utf8)
            out.append(contentsOf: key.mediaType.rawValue.utf8)
            out.append(UInt8(ascii: "\""))
            if let source {
                out.append(contentsOf: #","source":"#.utf8)
                JSONValue.writeString(source, to: &out)
            }
            out.append(UInt8(ascii: "}"))
            return out
        }
        switch event {
        case .favoriteAdded(let key), .favoriteRemoved(let key): return favorite(key)
        case .favoriteImported(let key, let addedAt, let source): return favorite(key, addedAt: addedAt, source: source)
        default: return event.payload.encoded()
        }
    }

    /// Whether `bytes` are a favorite's payload exactly as Reel writes it (so canonical already).
    public static func isCanonicalFavorite(_ bytes: UnsafeRawBufferPointer) -> Bool {
        mediaKey(bytes) != nil
    }

    /// `{"id":<digits>,"mediaType":"movie"}` or `…"tv"}`, and nothing else.
    static func mediaKey(_ bytes: UnsafeRawBufferPointer) -> MediaKey? {
        let head: StaticString = #"{"id":"#
        let middle: StaticString = #","mediaType":""#
        guard bytes.count > head.utf8CodeUnitCount, starts(bytes, 0, head) else { return nil }
        var i = head.utf8CodeUnitCount
        // A positive integer without a leading zero, short enough not to overflow.
        guard i < bytes.count, bytes[i] >= 0x31, bytes[i] <= 0x39 else { return nil }
        var id: Int64 = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            guard id < 100_000_000_000 else { return nil }
            id = id * 10 + Int64(bytes[i] - 0x30)
            i += 1
        }
        guard starts(bytes, i, middle) else { return nil }
        i += middle.utf8CodeUnitCount
        let rest = UnsafeRawBufferPointer(rebasing: bytes[i...])
        let type: MediaType
        if matches(rest, #"movie"}"#) {
            type = .movie
        } else if matches(rest, #"tv"}"#) {
            type = .tv
        } else {
            return nil
        }
        return try? MediaKey(type, id)
    }

    private static func matches(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && starts(bytes, 0, text)
    }

    /// Whether `bytes` has `text` at `offset`.
    private static func starts(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + offset, text.utf8Start, count) == 0
    }
}
