import EventLog
import Ledger

/// The stored form of an `AccountState`, in parts so that a command writes what it changed and
/// little more (an append to a list of thousands of titles writes the state record, not the list):
///
/// - the saved titles, in the order added, each as
///   `position (8) ‖ media type (1: 0 movie, 1 tv) ‖ id (8) ‖ addedAt (8)` (`entrySize`), go in
///   **pages** of `pageSize` (`page(_:)`): page k holds titles `k·pageSize ..< (k+1)·pageSize`,
///   keyed by the stream and k (`pageKey`). Only full pages are pages;
/// - the **record**, one per account, holds everything else and the titles after the last full
///   page (the tail): `format (1) ‖ item count (4) ‖ status (1) ‖ version (8) ‖
///   lastPosition (8) ‖ openedAt? ‖ deletedAt? ‖ handle? ‖ name? ‖ language ‖ photo? ‖ tail`.
///
/// An account of fewer than `pageSize` titles is one record, as it was before pages. Each part is
/// sealed under the account's key on its own. Integers are big-endian; strings are a 4-byte length
/// and UTF-8; an optional is a 0/1 byte and the value.
///
/// The **assembled** form (`assembled(record:pages:)`) is the record without its tail, then every
/// title in order: never stored, it is what `decode` reads.
enum AccountStateCodec {
    /// Format 1 held every title in the state record (projections `reel-projections/2`).
    static let format: UInt8 = 2
    /// Titles per page: a page (1,600 bytes, 1,628 sealed) fits in an LMDB node of a 4 KiB page.
    static let pageSize = 64
    static let entrySize = 25

    /// The record without its tail: what the assembled form begins with.
    static func header(of state: AccountState) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.integer(format)
        w.integer(UInt32(state.saved.count))
        w.integer(UInt8(state.status == .open ? 0 : state.status == .deleted ? 1 : 2))
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
        return w.bytes
    }

    /// How many full pages a list of `count` titles has.
    static func fullPages(_ count: Int) -> Int { count / pageSize }

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
    static func pageIndex(inKey key: RawSpan, prefix count: Int) -> Int? {
        guard key.byteCount == count + 4 else { return nil }
        return Int((count..<count + 4).reduce(UInt32(0)) { $0 << 8 | UInt32(key[byteAt: $1]) })
    }

    /// The assembled form from a record's and its pages' plaintexts (pages in key order), when
    /// the pages are the ones the record's count of titles must have: indexes 0, 1, 2, … up to
    /// the last full page, each full, and the record ending in the rest of the titles.
    static func assembled(record: [UInt8], pages: [(index: Int, plain: [UInt8])]) throws -> [UInt8] {
        guard record.count >= 5 else { throw Undecodable() }
        let count = Int(record[1..<5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let tail = (count - fullPages(count) * pageSize) * entrySize
        guard pages.count == fullPages(count), record.count >= 5 + tail else { throw Undecodable() }
        var bytes = Array(record[..<(record.count - tail)])
        bytes.reserveCapacity(bytes.count + count * entrySize)
        for (k, page) in pages.enumerated() {
            guard page.index == k, page.plain.count == pageSize * entrySize else { throw Undecodable() }
            bytes.append(contentsOf: page.plain)
        }
        bytes.append(contentsOf: record[(record.count - tail)...])
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
        let count = Int(try r.integer(UInt32.self))
        let status: AccountState.Status
        switch try r.integer(UInt8.self) {
        case 0: status = .open
        case 1: status = .deleted
        case 2: status = .moved
        default: throw Undecodable()
        }
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
