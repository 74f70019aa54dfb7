/// The kinds of file `reel account import` reads: a Reel export, or another app's list.
public enum InterchangeFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Reel's own export (a JSON object with `"format": "reel-export/1"`); read elsewhere.
    case reelExport
    /// Letterboxd's CSV exports, or a CSV in Letterboxd's import format (`LetterboxdCSV`).
    case letterboxd
    /// IMDb's list and watchlist CSV exports (`IMDbCSV`).
    case imdb
    /// Trakt's list JSON (`TraktJSON`).
    case trakt

    /// The format named by `--format`: `reel`, `letterboxd`, `imdb` or `trakt` (any case).
    public init?(name: String) {
        switch name.lowercased() {
        case "reel": self = .reelExport
        case "letterboxd": self = .letterboxd
        case "imdb": self = .imdb
        case "trakt": self = .trakt
        default: return nil
        }
    }

    /// The `--format` value naming this format.
    public var name: String {
        switch self {
        case .reelExport: "reel"
        case .letterboxd: "letterboxd"
        case .imdb: "imdb"
        case .trakt: "trakt"
        }
    }

    /// The `--format` values, for help and messages.
    public static let names = allCases.map(\.name)

    /// How messages name the format: “a Letterboxd CSV”.
    public var description: String {
        switch self {
        case .reelExport: "a Reel export"
        case .letterboxd: "a Letterboxd CSV"
        case .imdb: "an IMDb list CSV"
        case .trakt: "a Trakt list JSON"
        }
    }

    /// Guesses a file's format from its first bytes (and, for a Reel export, a look for its
    /// format tag): a JSON object naming `reel-export` is a Reel export, a JSON array a Trakt list;
    /// a CSV whose header has `Const` is IMDb's, and one with `Letterboxd URI`, `Name` and `Year`,
    /// `tmdbID` or `imdbID` is Letterboxd's. `nil` for anything else (other JSON, other CSV, text,
    /// binary data, an empty file).
    public static func detect(_ bytes: [UInt8]) -> InterchangeFormat? {
        var first = TextPosition.byteOrderMarkLength(bytes)
        while first < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[first]) { first += 1 }
        guard first < bytes.count else { return nil }
        switch bytes[first] {
        case UInt8(ascii: "{"):
            return contains(bytes, "\"format\"") && contains(bytes, "reel-export") ? .reelExport : nil
        case UInt8(ascii: "["):
            return .trakt
        default:
            guard let header = CSVTable.header(of: bytes) else { return nil }
            func has(_ name: String) -> Bool { CSVTable.column(name, in: header) != nil }
            if has("Const") { return .imdb }
            if has("Letterboxd URI") || (has("Name") && has("Year")) || has("tmdbID") || has("imdbID") { return .letterboxd }
            return nil
        }
    }

    /// Reads the titles of a list in this format; `nil` for `.reelExport`, which is a whole account
    /// rather than a list of titles and is read by the export's own reader.
    public func readTitles(_ bytes: [UInt8]) throws(InterchangeError) -> [ImportedTitle]? {
        switch self {
        case .reelExport: nil
        case .letterboxd: try LetterboxdCSV.read(bytes)
        case .imdb: try IMDbCSV.read(bytes)
        case .trakt: try TraktJSON.read(bytes)
        }
    }

    private static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { start in
            bytes[start] == pattern[0] && bytes[start..<(start + pattern.count)].elementsEqual(pattern)
        }
    }
}
