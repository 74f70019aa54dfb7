public import Reel

/// A browsed list (Movies, Series): the rows of the pages loaded so far (those the filter
/// matches shown), the cursor, and where paging stands. The next page is asked for once, when the cursor comes within a screen of the
/// end (`AppUpdate`); while it loads the list shows a loading row.
public struct BrowseList: Sendable, Equatable {
    public let mediaType: MediaType
    /// Every row of the pages loaded.
    public var loaded: [TitleRow] = [] {
        didSet { refilter() }
    }
    /// The rows shown: those loaded that the filter (`/`) matches; all of them without one.
    public private(set) var rows: [TitleRow] = []
    /// The filter typed with `/`, over the rows loaded (title or key, ignoring case and accents,
    /// as Saved's); while it has text no further page is asked for.
    public var filter = TextField(limit: 100) {
        didSet { refilter() }
    }
    /// Whether the filter takes the keys typed (`/` until enter or esc).
    public var filtering = false
    public var cursor = ListCursor()
    /// The last page loaded; 0 before the first.
    public var pagesLoaded = 0
    /// TMDb's last page of the list, once a page told.
    public var totalPages: Int?
    public var totalResults: Int?
    /// The page being fetched, if one is.
    public var loadingPage: Int?
    /// Why the last page failed; `r` asks again.
    public var error: String?
    /// What the list shows; changing it starts the list again from page 1.
    public var query = BrowseQuery()
    /// The genre filter, while it is open over the list.
    public var genrePicker: GenrePicker?
    /// The year filter, while it is being typed.
    public var yearField: YearField?

    public init(mediaType: MediaType) {
        self.mediaType = mediaType
    }

    /// The list started again for `query`: no rows, the cursor at the top, page 1 to load. A
    /// page of the old query arriving late is dropped (`AppUpdate` compares queries).
    public mutating func restart(_ query: BrowseQuery) {
        self = BrowseList(mediaType: mediaType)
        self.query = query
    }

    /// `rows` made again from what is loaded and the filter; a cursor past them goes to the top.
    private mutating func refilter() {
        rows = filter.text.isEmpty ? loaded : loaded.filter { SavedList.matches($0, filter.text) }
        if cursor.position >= max(1, rows.count) { cursor = ListCursor() }
    }

    /// True once the page loaded is TMDb's last.
    public var isComplete: Bool { totalPages.map { pagesLoaded >= $0 } ?? false }

    /// The page to ask for next, if any: none while one loads, after a failure (until `r`), or
    /// after the last.
    public var nextPage: Int? {
        guard loadingPage == nil, error == nil, !isComplete, filter.text.isEmpty || loaded.isEmpty else { return nil }
        return pagesLoaded + 1
    }
}
