import Reel

/// Everything the terminal app shows, as a value: `AppUpdate.update` makes the next one from a
/// message, `AppView` draws one. No I/O reaches it; effects ask for I/O and come back as messages.
public struct AppModel: Sendable, Equatable {
    /// The smallest screen the app lays out; below it the screen says the size it needs.
    public static let minimumWidth = 80
    public static let minimumHeight = 24
    /// Rows that are not the list: the tab bar, the list's heading, the status line.
    static let chromeRows = 3

    public var width: Int
    public var height: Int
    public var tab: Tab = .movies
    public var movies = BrowseList(mediaType: .movie)
    public var series = BrowseList(mediaType: .tv)
    public var saved = SavedList()
    public var search = SearchState()
    /// Screens opened over the tabs (a title's details, a person), the newest last: keys go to the
    /// last; `esc` or `q` goes back one; a tab switch closes them all.
    public var screens: [Screen] = []
    public var settings = SettingsState()
    public var showsHelp = false
    public var status: StatusLine
    /// Set by `q` on a tab and by ctrl-c: the driver restores the terminal and ends.
    public var quitting = false
    /// Which key does what (`keys.toml`).
    public var keys: KeyBindings
    /// The posters and photos drawn, and whether the terminal draws any.
    public var pictures = PictureState()
    /// The preview pane's details (`PreviewPane` shows them beside a list on a wide screen).
    public var preview = PreviewState()

    public init(width: Int, height: Int, account: String, catalog: CatalogKind = .unknown, keys: KeyBindings = .standard) {
        self.width = width
        self.height = height
        self.status = StatusLine(account: account, catalog: catalog)
        self.keys = keys
    }

    /// Where keys are read: which tab's or screen's own actions (`keys.toml`) apply.
    public var keyContext: KeyAction.Context? {
        guard screens.isEmpty else { return .details }
        switch tab {
        // A genre picker takes its own keys (space chooses a genre), not the list's.
        case .movies, .series: return self[list: tab.mediaType!].genrePicker == nil ? .browse : nil
        case .search: return .search
        case .saved: return saved.genrePicker == nil ? .saved : nil
        case .settings: return nil
        }
    }

    /// Whether something the screen shows failed to load, so `r` asks for it again.
    public var showsAFailedLoad: Bool {
        switch screens.last {
        case .details(let screen)?: return screen.error != nil
        case .person(let screen)?: return screen.error != nil
        case nil: break
        }
        switch tab {
        case .movies, .series: return self[list: tab.mediaType!].error != nil
        case .search: return search.error != nil || search.defaultPersonError != nil
        case .saved: return saved.error != nil || saved.historyError != nil
        case .settings: return settings.error != nil
        }
    }

    /// Whether a text field has the keys, so they are taken as typed, not as bound.
    public var isTyping: Bool {
        guard screens.isEmpty else { return false }
        switch tab {
        case .search: return search.editing
        case .saved: return saved.typing != nil
        case .settings: return settings.editing != nil || settings.picker != nil
        case .movies, .series: break
        }
        guard let mediaType = tab.mediaType else { return false }
        return self[list: mediaType].yearField != nil || self[list: mediaType].filtering
    }

    public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// How many screen lines the lists have (a "screen" for paging and ctrl-d).
    public var visibleRows: Int { max(1, height - Self.chromeRows) }

    /// List rows show thumbnails: `p` turned them on, and the terminal draws pictures.
    public var showsThumbnails: Bool { pictures.thumbnails && pictures.available }

    /// The screen lines a row of a list of titles takes: its thumbnail's (three, four in pixels)
    /// with thumbnails, else one.
    public var rowHeight: Int { showsThumbnails ? pictures.thumbnailSize.rows : 1 }

    /// How many rows of a list of titles fit in `lines` screen lines.
    public func rowsFitting(_ lines: Int) -> Int { max(1, lines / rowHeight) }

    /// How many rows of a browsed list (Movies, Series) fit on the screen, under its heading and
    /// the header row naming its columns.
    public var visibleListRows: Int { rowsFitting(visibleRows - 1) }

    /// The browsed list of a tab (Movies, Series), if it has one.
    public func browseList(_ tab: Tab) -> BrowseList? {
        switch tab {
        case .movies: movies
        case .series: series
        default: nil
        }
    }

    /// The browsed list of `mediaType`.
    subscript(list mediaType: MediaType) -> BrowseList {
        get { mediaType == .movie ? movies : series }
        set { if mediaType == .movie { movies = newValue } else { series = newValue } }
    }
}
