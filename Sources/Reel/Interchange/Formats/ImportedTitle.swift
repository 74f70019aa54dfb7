import Ledger

/// One title read from another app's list, before it is matched with TMDb: what the file says
/// about it, each part optional, and where in the file it is.
public struct ImportedTitle: Sendable, Hashable {
    /// Where a title is in its file.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        /// The 1-based line a CSV row starts on.
        case line(Int)
        /// The 1-based position of an entry in a JSON list.
        case entry(Int)

        /// The line or the position.
        public var number: Int {
            switch self {
            case .line(let n), .entry(let n): n
            }
        }

        /// “line 4” or “entry 4”.
        public var description: String {
            switch self {
            case .line(let n): "line \(n)"
            case .entry(let n): "entry \(n)"
            }
        }
    }

    public let location: Location
    /// `.movie` or `.tv`; `nil` when the file names something Reel does not save (an episode, a
    /// season, a person, a video game) or a kind it does not know: such titles are reported as
    /// unmatched, not imported.
    public let mediaType: MediaType?
    /// The kind as the file names it (`TV Episode`, `season`), when it has one: for messages about
    /// titles without a `mediaType`.
    public let kind: String?
    public let tmdbID: Int64?
    /// An IMDb title id, `tt` and digits.
    public let imdbID: String?
    public let title: String?
    public let year: Int?
    /// When the title was added to the list there, in microseconds since 1970-01-01T00:00:00Z.
    public let addedAt: Int64?

    public init(
        location: Location, mediaType: MediaType?, kind: String? = nil, tmdbID: Int64? = nil, imdbID: String? = nil,
        title: String? = nil, year: Int? = nil, addedAt: Int64? = nil
    ) {
        self.location = location
        self.mediaType = mediaType
        self.kind = kind
        self.tmdbID = tmdbID
        self.imdbID = imdbID
        self.title = title
        self.year = year
        self.addedAt = addedAt
    }

    /// A short name for messages: “Fight Club (1999)”, else “tt0137523”, else “TMDb 550”, else
    /// “line 4” (or “entry 4”).
    public var label: String {
        if let title, !title.isEmpty { return year.map { "\(title) (\($0))" } ?? title }
        if let imdbID { return imdbID }
        if let tmdbID { return "TMDb \(tmdbID)" }
        return location.description
    }

    /// Whether `text` is an IMDb title id: `tt` followed by digits.
    public static func isIMDbID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count > 2 && bytes.count <= 14 && bytes[0] == UInt8(ascii: "t") && bytes[1] == UInt8(ascii: "t")
            && bytes[2...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
