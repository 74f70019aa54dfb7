import EventLog
import Ledger

/// The stored form of an `AccountState`, in parts so that a command writes what it changed and
/// little more (an append to a list of thousands of titles writes its page of titles, not the list):
///
/// - the **header** (`header(of:)`), one record per account:
///   `format (1) ‖ status (1) ‖ version (8) ‖ lastPosition (8) ‖ openedAt? ‖ deletedAt? ‖ handle? ‖
///   name? ‖ language ‖ photo? ‖ item count (4)`;
/// - the saved titles in **pages** of `pageSize` (`page(_:)`): page k holds titles
///   `k·pageSize ..< (k+1)·pageSize` of the list in the order added, each as
///   `position (8) ‖ media type (1: 0 movie, 1 tv) ‖ id (8) ‖ addedAt (8)`, keyed by the stream
///   and k (`pageKey`). Every page but the last is full.
///
/// Each part is sealed under the account's key on its own. Integers are big-endian; strings are a
/// 4-byte length and UTF-8; an optional is a 0/1 byte and the value.
///
/// The **assembled** form (`assembled(of:)`) is the header followed by the pages in order: never
/// stored, it is what a rebuild compares byte for byte and what `decode` reads.
enum AccountStateCodec {
    /// Format 1 held the titles inside the state record (projections `reel-projections/2`).
    static let format: UInt8 = 2
    /// Titles per page: a page (1,600 bytes, 1,628 sealed) fits in an LMDB node of a 4 KiB page.
    static let pageSize = 64
    static let entrySize = 25

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

    /// A page's plaintext: `position ‖ media type ‖ id ‖ addedAt` for each title.
    static func page(_ items: ArraySlice<SavedItem>) -> [UInt8] {
        var w = ByteWriter(capacity: items.count * entrySize)
        for item in items {
            w.integer(item.position)
            w.integer(UInt8(item.key.mediaType == .movie ? 0 : 1))
            w.integer(item.key.id)
            w.integer(item.addedAt)
        }
        return w.bytes
    }

    /// How many pages a list of `count` titles takes.
    static func pages(holding count: Int) -> Int { (count + pageSize - 1) / pageSize }

    /// The key of page `index` of `stream`: `stream id ‖ 0x00 ‖ index (4)`.
    static func pageKey(_ stream: StreamID, _ index: Int) -> [UInt8] {
        var key = pagePrefix(stream)
        withUnsafeBytes(of: UInt32(index).bigEndian) { key.append(contentsOf: $0) }
        return key
    }

    /// What every page key of `stream` starts with (a stream id has no 0x00 byte).
    static func pagePrefix(_ stream: StreamID) -> [UInt8] {
        Array(stream.rawValue.utf8) + [0]
    }

    /// The page index a key names, or `nil` for a key that is not a page key after `prefix`.
    static func pageIndex(inKey key: UnsafeRawBufferPointer, prefix count: Int) -> Int? {
        guard key.count == count + 4 else { return nil }
        return Int(key[count...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// The assembled form from a header's and its pages' plaintexts (pages in key order), when
    /// the pages are the ones the header's count of titles must have: indexes 0, 1, 2, … with
    /// every page full but the last.
    static func assembled(header: [UInt8], pages: [(index: Int, plain: [UInt8])]) throws -> [UInt8] {
        guard header.count >= 4 else { throw Undecodable() }
        let count = Int(header.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard pages.count == self.pages(holding: count) else { throw Undecodable() }
        var bytes = header
        bytes.reserveCapacity(header.count + count * entrySize)
        for (k, page) in pages.enumerated() {
            let titles = k == pages.count - 1 ? count - k * pageSize : pageSize
            guard page.index == k, page.plain.count == titles * entrySize else { throw Undecodable() }
            bytes.append(contentsOf: page.plain)
        }
        return bytes
    }

    /// The header and every page in order, as one buffer (see the type's documentation).
    static func assembled(of state: AccountState) -> [UInt8] {
        header(of: state) + page(state.saved.items[...])
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
