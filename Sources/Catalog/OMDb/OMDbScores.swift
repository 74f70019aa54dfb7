/// What a list shows and sorts by of one title's OMDb answer (the IMDb rating and votes, the
/// Metascore, the Tomatometer), kept compact beside the answer in the response cache so a saved
/// list of thousands reads them in one transaction without decoding JSON. `found` is false for
/// a title OMDb does not know (asked, and answered so: not asked again until it expires).
public struct OMDbScores: Sendable, Equatable {
    public let imdbID: String
    public let found: Bool
    public let imdbRating: Double?
    public let imdbVotes: Int?
    public let metascore: Int?
    public let tomatometer: Int?
    /// Microseconds since 1970 (UTC), as the answer they come from.
    public let storedAt: Int64
    public let expiresAt: Int64

    public init(
        imdbID: String, found: Bool, imdbRating: Double?, imdbVotes: Int?, metascore: Int?, tomatometer: Int?, storedAt: Int64,
        expiresAt: Int64
    ) {
        self.imdbID = imdbID
        self.found = found
        self.imdbRating = imdbRating
        self.imdbVotes = imdbVotes
        self.metascore = metascore
        self.tomatometer = tomatometer
        self.storedAt = storedAt
        self.expiresAt = expiresAt
    }

    /// A title's scores, stored when its answer is.
    public init(_ title: OMDbTitle, storedAt: Int64, expiresAt: Int64) {
        self.init(
            imdbID: title.imdbID, found: true, imdbRating: title.imdbRating, imdbVotes: title.imdbVotes, metascore: title.metascore,
            tomatometer: title.tomatometer, storedAt: storedAt, expiresAt: expiresAt)
    }

    /// OMDb does not know `imdbID`.
    public static func missing(_ imdbID: String, storedAt: Int64, expiresAt: Int64) -> OMDbScores {
        OMDbScores(imdbID: imdbID, found: false, imdbRating: nil, imdbVotes: nil, metascore: nil, tomatometer: nil, storedAt: storedAt, expiresAt: expiresAt)
    }

    public func isFresh(at now: Int64) -> Bool { now < expiresAt }

    private static let magic: [UInt8] = [0x4F, 0x53, 0x01]  // "OS", format 1

    /// `OS 01 | storedAt i64 | expiresAt i64 | flags u8 (found, rating, votes, metascore,
    /// tomatometer) | rating f64 bits | votes i64 | metascore u8 | tomatometer u8`, big-endian.
    func encoded() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(38)
        func int64(_ v: Int64) { withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) } }
        int64(storedAt)
        int64(expiresAt)
        var flags: UInt8 = found ? 1 : 0
        if imdbRating != nil { flags |= 2 }
        if imdbVotes != nil { flags |= 4 }
        if metascore != nil { flags |= 8 }
        if tomatometer != nil { flags |= 16 }
        out.append(flags)
        int64(Int64(bitPattern: (imdbRating ?? 0).bitPattern))
        int64(Int64(imdbVotes ?? 0))
        out.append(UInt8(clamping: metascore ?? 0))
        out.append(UInt8(clamping: tomatometer ?? 0))
        return out
    }

    /// Nil for bytes that are not scores of this format (a miss).
    init?(decoding bytes: UnsafeRawBufferPointer, imdbID: String) {
        guard bytes.count == 38, bytes[0] == Self.magic[0], bytes[1] == Self.magic[1], bytes[2] == Self.magic[2] else { return nil }
        func int64(_ at: Int) -> Int64 { Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: Int64.self)) }
        let flags = bytes[19]
        let rating = Double(bitPattern: UInt64(bitPattern: int64(20)))
        guard rating.isFinite, int64(28) >= 0 else { return nil }
        self.init(
            imdbID: imdbID, found: flags & 1 != 0, imdbRating: flags & 2 != 0 ? rating : nil, imdbVotes: flags & 4 != 0 ? Int(int64(28)) : nil,
            metascore: flags & 8 != 0 ? Int(bytes[36]) : nil, tomatometer: flags & 16 != 0 ? Int(bytes[37]) : nil,
            storedAt: int64(3), expiresAt: int64(11))
    }
}
