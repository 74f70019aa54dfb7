import Foundation
import Ledger

/// One title's summary as the summary cache keeps it: taken from a details answer and stored
/// beside it, under the same request key (which holds the language), with the same `storedAt`
/// and `expiresAt` as that answer, so it is fresh exactly as long as the answer is. Times are
/// microseconds since 1970 (UTC).
public struct CachedSummary: Sendable, Equatable {
    /// The details request's key: `/movie/550?language=de-DE`.
    public let key: String
    public let storedAt: Int64
    public let expiresAt: Int64
    public let summary: DetailsSummary

    public init(key: String, storedAt: Int64, expiresAt: Int64, summary: DetailsSummary) {
        self.key = key
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.summary = summary
    }

    public func isFresh(at now: Int64) -> Bool { now < expiresAt }

    private static let magic: [UInt8] = [0x52, 0x53, 0x02]  // "RS", format 2 (format 1 had no IMDb id)

    /// `RS 01 | storedAt i64 | expiresAt i64 | u16 key | u8 media (0 movie, 1 tv) | id i64 |
    /// u16 title | u8 has-original [u16 original] | u16 year (0: none) u8 month u8 day |
    /// u16 genres × (i64 id, u16 name) | voteAverage f64 bits | voteCount i64 | popularity f64 bits |
    /// u8 has-poster [u16 poster] | u8 has-imdb [u16 imdb]`, big-endian. Strings are UTF-8 with their byte count.
    func encoded() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(96 + key.utf8.count + summary.title.utf8.count * 2 + summary.genres.count * 24)
        func int64(_ v: Int64) { withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) } }
        func uint16(_ v: Int) { withUnsafeBytes(of: UInt16(v).bigEndian) { out.append(contentsOf: $0) } }
        func string16(_ s: String) {
            let bytes = s.utf8.prefix(Int(UInt16.max))
            uint16(bytes.count)
            out.append(contentsOf: bytes)
        }
        func optional(_ s: String?) {
            out.append(s == nil ? 0 : 1)
            if let s { string16(s) }
        }
        let s = summary
        int64(storedAt)
        int64(expiresAt)
        string16(key)
        out.append(s.key.mediaType == .movie ? 0 : 1)
        int64(s.key.id)
        string16(s.title)
        optional(s.originalTitle)
        uint16(s.date?.year ?? 0)
        out.append(UInt8(s.date?.month ?? 0))
        out.append(UInt8(s.date?.day ?? 0))
        uint16(min(s.genres.count, Int(UInt16.max)))
        for genre in s.genres.prefix(Int(UInt16.max)) {
            int64(Int64(genre.id))
            string16(genre.name)
        }
        int64(Int64(bitPattern: s.voteAverage.bitPattern))
        int64(Int64(s.voteCount))
        int64(Int64(bitPattern: s.popularity.bitPattern))
        optional(s.posterPath)
        optional(s.imdbID)
        return out
    }

    /// Nil for bytes that are not a summary of this format, or (given `expected`) not the summary
    /// stored for that key: both are a miss.
    init?(decoding bytes: UnsafeRawBufferPointer, of expected: String? = nil) {
        var reader = Reader(bytes: bytes)
        guard let magic = reader.take(3), magic[0] == Self.magic[0], magic[1] == Self.magic[1], magic[2] == Self.magic[2],
              let stored = reader.int64(), let expires = reader.int64(), let keyBytes = reader.bytes16() else { return nil }
        let key: String
        if let expected {
            var expected = expected
            let same = expected.withUTF8 { utf8 in
                utf8.count == keyBytes.count && (utf8.isEmpty || memcmp(utf8.baseAddress!, keyBytes.baseAddress!, utf8.count) == 0)
            }
            guard same else { return nil }
            key = expected
        } else {
            key = String(decoding: keyBytes, as: UTF8.self)
        }
        guard let media = reader.uint8(), media <= 1, let id = reader.int64(),
              let mediaKey = try? MediaKey(media == 0 ? .movie : .tv, id),
              let title = reader.string16(), let original = reader.optionalString16(),
              let year = reader.uint16(), let month = reader.uint8(), let day = reader.uint8(),
              let genreCount = reader.uint16() else { return nil }
        var date: TMDbDate?
        if year != 0 {
            guard let day = TMDbDate(year: year, month: month, day: day) else { return nil }
            date = day
        }
        var genres: [Genre] = []
        genres.reserveCapacity(genreCount)
        for _ in 0..<genreCount {
            guard let id = reader.int64(), let name = reader.string16() else { return nil }
            genres.append(Genre(id: Int(id), name: name))
        }
        guard let average = reader.int64(), let votes = reader.int64(), let popularity = reader.int64(),
              let poster = reader.optionalString16(), let imdb = reader.optionalString16(), reader.isAtEnd else { return nil }
        self.init(
            key: key, storedAt: stored, expiresAt: expires,
            summary: DetailsSummary(
                key: mediaKey, title: title, originalTitle: original, date: date, genres: genres,
                voteAverage: Double(bitPattern: UInt64(bitPattern: average)), voteCount: Int(votes),
                popularity: Double(bitPattern: UInt64(bitPattern: popularity)), posterPath: poster, imdbID: imdb
            )
        )
    }

    /// Reads the fields in order; every read is nil past the end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        var isAtEnd: Bool { at == bytes.count }

        mutating func take(_ n: Int) -> UnsafeRawBufferPointer? {
            guard n <= bytes.count - at else { return nil }
            defer { at += n }
            return UnsafeRawBufferPointer(rebasing: bytes[at..<at + n])
        }

        mutating func uint8() -> Int? { take(1).map { Int($0[0]) } }
        mutating func uint16() -> Int? { take(2).map { Int(UInt16(bigEndian: $0.loadUnaligned(as: UInt16.self))) } }
        mutating func int64() -> Int64? { take(8).map { Int64(bigEndian: $0.loadUnaligned(as: Int64.self)) } }

        mutating func bytes16() -> UnsafeRawBufferPointer? {
            guard let n = uint16() else { return nil }
            return take(n)
        }

        mutating func string16() -> String? { bytes16().map { String(decoding: $0, as: UTF8.self) } }

        /// `.some(nil)` for an absent string, nil when the bytes run out.
        mutating func optionalString16() -> String?? {
            guard let present = uint8(), present <= 1 else { return nil }
            guard present == 1 else { return .some(nil) }
            guard let s = string16() else { return nil }
            return .some(s)
        }
    }
}
