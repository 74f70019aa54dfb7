import Ledger

/// The stored form of an `AccountState` (sealed under the account's key before it is written):
///
/// `format (1) ‖ status (1) ‖ version (8) ‖ lastPosition (8) ‖ openedAt? ‖ deletedAt? ‖ handle? ‖
/// name? ‖ language ‖ photo? ‖ item count (4) ‖ items`, an item being
/// `media type (1: 0 movie, 1 tv) ‖ id (8) ‖ addedAt (8) ‖ position (8)`. Integers are big-endian;
/// strings are a 4-byte length and UTF-8; an optional is a 0/1 byte and the value.
enum AccountStateCodec {
    static let format: UInt8 = 1

    static func encode(_ state: AccountState) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + state.saved.count * 25)
        w.integer(format)
        w.integer(UInt8(state.status == .open ? 0 : 1))
        w.integer(state.version)
        w.integer(state.lastPosition)
        optional(state.openedAt, &w)
        optional(state.deletedAt, &w)
        w.optionalString(state.handle?.value)
        w.optionalString(state.settings.name?.value)
        w.string(state.settings.language.value)
        w.integer(UInt8(state.settings.photo == nil ? 0 : 1))
        if let photo = state.settings.photo {
            w.string(photo.sha256)
            w.string(photo.contentType)
            w.integer(Int64(photo.bytes))
            w.integer(Int64(photo.width))
            w.integer(Int64(photo.height))
        }
        w.integer(UInt32(state.saved.count))
        for item in state.saved.items {
            w.integer(UInt8(item.key.mediaType == .movie ? 0 : 1))
            w.integer(item.key.id)
            w.integer(item.addedAt)
            w.integer(item.position)
        }
        return w.bytes
    }

    private static func optional(_ value: Int64?, _ w: inout ByteWriter) {
        w.integer(UInt8(value == nil ? 0 : 1))
        if let value { w.integer(value) }
    }

    struct Undecodable: Error {}

    static func decode(_ bytes: [UInt8]) throws -> AccountState {
        var r = ByteReader(bytes)
        guard try r.integer(UInt8.self) == format else { throw Undecodable() }
        let status: AccountState.Status = try r.integer(UInt8.self) == 0 ? .open : .deleted
        let version = try r.integer(UInt64.self)
        let lastPosition = try r.integer(UInt64.self)
        let openedAt = try r.integer(UInt8.self) == 0 ? nil : try r.integer(Int64.self)
        let deletedAt = try r.integer(UInt8.self) == 0 ? nil : try r.integer(Int64.self)
        let handle = try r.optionalString().map { try AccountHandle($0) }
        let name = try r.optionalString().map { try ProfileName($0) }
        let language = LanguageTag(stored: try r.string())
        var photo: PhotoReference?
        if try r.integer(UInt8.self) == 1 {
            photo = PhotoReference(
                sha256: try r.string(), contentType: try r.string(), bytes: Int(try r.integer(Int64.self)),
                width: Int(try r.integer(Int64.self)), height: Int(try r.integer(Int64.self)))
        }
        let count = Int(try r.integer(UInt32.self))
        var items: [SavedItem] = []
        items.reserveCapacity(count)
        for _ in 0..<count {
            let media: MediaType = try r.integer(UInt8.self) == 0 ? .movie : .tv
            let key = try MediaKey(media, try r.integer(Int64.self))
            items.append(SavedItem(key: key, addedAt: try r.integer(Int64.self), position: try r.integer(UInt64.self)))
        }
        guard r.isAtEnd else { throw Undecodable() }
        return AccountState(
            handle: handle, status: status, saved: SavedList(items: items),
            settings: Settings(name: name, photo: photo, language: language), version: version,
            lastPosition: lastPosition, openedAt: openedAt, deletedAt: deletedAt)
    }
}
