import EventLog
import Ledger

/// The stored form of an `AccountState`, in two parts so that a command writes what it changed and
/// no more (an append to a list of thousands of titles writes one title, not the list):
///
/// - the **header** (`header(of:)`), one record per account:
///   `format (1) ‖ status (1) ‖ version (8) ‖ lastPosition (8) ‖ openedAt? ‖ deletedAt? ‖ handle? ‖
///   name? ‖ language ‖ photo? ‖ item count (4)`;
/// - one **item** record per saved title (`item(_:)`), keyed by the stream and the log position
///   that added it (`itemKey`), so the keys are in the order the titles were added:
///   `media type (1: 0 movie, 1 tv) ‖ id (8) ‖ addedAt (8)`.
///
/// Each part is sealed under the account's key on its own. Integers are big-endian; strings are a
/// 4-byte length and UTF-8; an optional is a 0/1 byte and the value.
///
/// The **assembled** form (`assembled(of:)`) is the header followed by `position (8) ‖ item` for
/// every title in order: never stored, it is what a rebuild compares byte for byte and what
/// `decode` reads.
enum AccountStateCodec {
    /// Format 1 held the items inside the state record (projections `reel-projections/2`).
    static let format: UInt8 = 2
    static let itemSize = 17

    static func header(of state: AccountState) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
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
        return w.bytes
    }

    /// An item record's plaintext (its position is in its key).
    static func item(_ item: SavedItem) -> [UInt8] {
        var w = ByteWriter(capacity: itemSize)
        w.integer(UInt8(item.key.mediaType == .movie ? 0 : 1))
        w.integer(item.key.id)
        w.integer(item.addedAt)
        return w.bytes
    }

    /// The key of the item added at `position` in `stream`: `stream id ‖ 0x00 ‖ position (8)`.
    static func itemKey(_ stream: StreamID, _ position: UInt64) -> [UInt8] {
        var key = itemPrefix(stream)
        withUnsafeBytes(of: position.bigEndian) { key.append(contentsOf: $0) }
        return key
    }

    /// What every item key of `stream` starts with (a stream id has no 0x00 byte).
    static func itemPrefix(_ stream: StreamID) -> [UInt8] {
        Array(stream.rawValue.utf8) + [0]
    }

    /// The position an item key names, or `nil` for a key that is not an item key of `prefix`.
    static func position(inItemKey key: UnsafeRawBufferPointer, prefix count: Int) -> UInt64? {
        guard key.count == count + 8 else { return nil }
        return key[count...].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The header and every item in order, as one buffer (see the type's documentation).
    static func assembled(of state: AccountState) -> [UInt8] {
        var bytes = header(of: state)
        bytes.reserveCapacity(bytes.count + state.saved.count * (8 + itemSize))
        for item in state.saved.items {
            withUnsafeBytes(of: item.position.bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: self.item(item))
        }
        return bytes
    }

    private static func optional(_ value: Int64?, _ w: inout ByteWriter) {
        w.integer(UInt8(value == nil ? 0 : 1))
        if let value { w.integer(value) }
    }

    struct Undecodable: Error {}

    /// The state an assembled buffer holds: its header's count of items, in strictly increasing
    /// positions, and nothing after them.
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
        var previous: UInt64 = 0
        for _ in 0..<count {
            let position = try r.integer(UInt64.self)
            guard position > previous, position <= lastPosition else { throw Undecodable() }
            previous = position
            let media: MediaType = try r.integer(UInt8.self) == 0 ? .movie : .tv
            let key = try MediaKey(media, try r.integer(Int64.self))
            items.append(SavedItem(key: key, addedAt: try r.integer(Int64.self), position: position))
        }
        guard r.isAtEnd else { throw Undecodable() }
        let saved = SavedList(items: items)
        guard saved.count == count else { throw Undecodable() }  // a title twice
        return AccountState(
            handle: handle, status: status, saved: saved,
            settings: Settings(name: name, photo: photo, language: language), version: version,
            lastPosition: lastPosition, openedAt: openedAt, deletedAt: deletedAt)
    }
}
