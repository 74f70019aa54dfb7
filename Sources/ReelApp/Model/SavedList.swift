import Foundation
public import Reel

/// The Saved tab: the hydrated list as the core answered the request (order, genre, a point in
/// the past), the rows the filter-as-you-type lets through, the account's history for time
/// travel, and the changes made since the app opened, which `u` takes back one by one.
public struct SavedList: Sendable, Equatable {
    /// What the tab is typing into, if anything: the filter (`/`) or a point to travel to (`t`).
    public enum Typing: Sendable, Equatable {
        case filter
        case point(TextField)
    }

    /// The rows of the last answer to `request`, in its order.
    public var rows: [TitleRow] = []
    /// The rows the filter lets through: what the list shows.
    public private(set) var shown: [TitleRow] = []
    public var cursor = ListCursor()
    /// Loaded at least once.
    public var loaded = false
    public var error: String?
    /// How many titles are saved (at the point shown), before the genre and the filter.
    public var total = 0

    /// The list wanted; an answer to another is not shown (it is asked for again).
    public var request = SavedRequest()
    /// The request being answered: one at a time.
    public var inFlight: SavedRequest?
    /// How far its answer has come (nil until said, and once it came).
    public var progress: LoadProgress?
    /// The account changed (or the request did) while one was being answered: ask again after.
    public var stale = false
    /// The genres of the whole list now, for `f` to go through.
    public var genres: [String] = []
    /// The genre picker (`f`), open over the list: the same as Movies'.
    public var genrePicker: GenrePicker?
    /// Only rows whose title contains this (case and accents ignored).
    public var filter = TextField(limit: 100)
    public var typing: Typing?

    public var history: [HistoryLine] = []
    public var historyLoaded = false
    public var historyLoading = false
    public var historyStale = false
    public var historyError: String?
    /// The history pane (`h`) is open instead of the list.
    public var showsHistory = false
    public var historyCursor = ListCursor()

    /// Changes made since the app opened, the last one last: `u` takes back the last.
    public var undo: [FavoriteChange] = []
    /// Titles saved or removed whose event the core has not confirmed yet: their ★ shows the
    /// change already, and a second `s` on one waits for the first.
    public var pending: Set<MediaKey> = []

    public init() {}

    public var loading: Bool { inFlight != nil }

    /// The row under the cursor, if the list shows any.
    public var current: TitleRow? { shown.indices.contains(cursor.position) ? shown[cursor.position] : nil }

    /// Whether any row has OMDb's scores: the list shows its score column, and `s` goes through
    /// OMDb's orders, only then (OMDb off, or nothing filled yet, they would show nothing).
    public var hasScores: Bool { rows.contains { $0.scores != nil } }

    /// The history line of the point shown, when one is.
    public var asOfLine: HistoryLine? {
        guard let version = request.asOf else { return nil }
        return history.first { $0.version == version }
    }

    /// `shown` made again from `rows` and the filter, the cursor kept within it.
    public mutating func refilter(visible: Int) {
        let text = filter.text
        shown = text.isEmpty ? rows : rows.filter { Self.matches($0, text) }
        cursor = cursor.scrolled(count: shown.count, visible: visible)
    }

    /// Whether `row` has `text` in its title (or its key: `movie 603`), ignoring case and
    /// accents, as `reel saved --search` compares.
    static func matches(_ row: TitleRow, _ text: String) -> Bool {
        let needle = fold(text)
        return fold(row.title).contains(needle) || row.key.description.contains(needle)
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
