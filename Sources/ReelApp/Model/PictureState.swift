/// Pictures in the app: whether the terminal draws any (and why not, as the probe said), whether
/// list rows show thumbnails (`p`), and the pictures asked for, by key: loading, drawn, or failed.
/// A failed picture is not asked for again while it is kept. Bounded: past `limit` pictures or
/// `byteLimit` bytes the oldest not on screen are forgotten (and asked for again if they return).
public struct PictureState: Sendable, Equatable {
    public enum Entry: Sendable, Equatable {
        case loading
        case drawn(DrawnPicture)
        /// Why there is no picture (one line): not cached offline, none at TMDb, a damaged file.
        case failed(String)
    }

    /// Whether the terminal draws pictures at all (`TerminalProbe` found a mode other than none).
    public var available: Bool
    /// How that was decided (`symbols, truecolor (…)`, `none (REEL_IMAGES=none)`).
    public var reason: String
    /// Whether the terminal draws pixels (kitty, iTerm2, sixel), not character cells: thumbnails
    /// are larger then, as a picture of a few cells is recognisable only in pixels.
    public var drawsPixels: Bool
    /// List rows are three lines tall (four in pixels) with a small poster at their left.
    public var thumbnails = false
    public private(set) var entries: [PictureKey: Entry] = [:]
    /// The keys of `entries`, the oldest asked for first.
    private var order: [PictureKey] = []

    public static let limit = 200
    public static let byteLimit = 32 << 20

    public init(available: Bool = false, reason: String = "none", drawsPixels: Bool = false) {
        self.available = available
        self.reason = reason
        self.drawsPixels = drawsPixels
    }

    /// A list row's thumbnail, in cells: 4×3 drawn with characters; 6×4 in pixels, where a poster
    /// of about 60×80 pixels is one a person recognises.
    public var thumbnailSize: (columns: Int, rows: Int) { drawsPixels ? (6, 4) : (4, 3) }

    public subscript(key: PictureKey) -> Entry? { entries[key] }

    /// Marks `key` as loading; false when it is known already (loading, drawn or failed).
    mutating func request(_ key: PictureKey) -> Bool {
        guard entries[key] == nil else { return false }
        entries[key] = .loading
        order.append(key)
        return true
    }

    /// The answer for `key`, kept when it is still asked for: a late answer for a picture
    /// forgotten meanwhile is dropped.
    mutating func answer(_ key: PictureKey, _ entry: Entry) {
        guard entries[key] != nil else { return }
        entries[key] = entry
    }

    /// `key` forgotten (a picture drawn ahead that the cache did not have), so it is asked for
    /// again when it shows.
    mutating func forget(_ key: PictureKey) {
        guard entries.removeValue(forKey: key) != nil else { return }
        order.removeAll { $0 == key }
    }

    /// The oldest pictures forgotten, but those in `wanted` (on screen), until within the limits.
    mutating func trim(keeping wanted: Set<PictureKey>) {
        var bytes = entries.values.reduce(0) { total, entry in
            if case .drawn(let picture) = entry { total + picture.size } else { total }
        }
        var kept: [PictureKey] = []
        var count = order.count
        for key in order {
            guard count > Self.limit || bytes > Self.byteLimit, !wanted.contains(key) else {
                kept.append(key)
                continue
            }
            if case .drawn(let picture)? = entries[key] { bytes -= picture.size }
            entries[key] = nil
            count -= 1
        }
        order = kept
    }
}
