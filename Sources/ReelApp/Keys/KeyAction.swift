/// What a key can be bound to in `keys.toml`: each action has its default keys, the key the app's
/// logic understands it by (`canonical`, which a key bound to it is read as), and where it works
/// (`context`: everywhere, or one tab or screen only, so `s` can sort Saved and save on details).
public enum KeyAction: String, CaseIterable, Sendable {
    case down, up, first, last
    case halfDown = "half-down", halfUp = "half-up", pageDown = "page-down", pageUp = "page-up"
    case movies, series, search, saved, settings
    case nextTab = "next-tab", previousTab = "previous-tab"
    case reload, help, quit
    /// Thumbnails (small posters) on the rows of lists of titles, on or off.
    case thumbnails
    // Movies, Series.
    case list, sort, reverse, genres, year, clear, filter
    // Search.
    case searchField = "search-field", searchNextType = "search-next-type", searchPreviousType = "search-previous-type"
    // Saved.
    case savedSort = "saved-sort", savedReverse = "saved-reverse", savedGenres = "saved-genres"
    case savedClear = "saved-clear", savedFilter = "saved-filter", remove, undo
    case versionBack = "version-back", versionForward = "version-forward", goTo = "go-to", history
    // Details.
    case toggleSaved = "toggle-saved"

    /// Where an action's keys work.
    public enum Context: String, Sendable, CaseIterable {
        case browse, search, saved, details

        /// As a sentence names the place: `Movies and Series`, `details`.
        public var place: String {
            switch self {
            case .browse: "Movies and Series"
            case .search: "Search"
            case .saved: "Saved"
            case .details: "a title's details"
            }
        }
    }

    /// Where the action's keys work; `nil`: everywhere (but a text field, which takes keys as typed).
    public var contexts: Set<Context>? {
        switch self {
        case .list, .sort, .reverse, .genres, .year, .clear, .filter: [.browse]
        case .searchField, .searchNextType, .searchPreviousType: [.search]
        case .savedSort, .savedReverse, .savedGenres, .savedClear, .savedFilter, .remove, .versionBack, .versionForward,
            .goTo, .history:
            [.saved]
        // Save or remove the title under the cursor on any list of titles but Saved (where `x`
        // removes and `s` sorts), and the title a details screen shows.
        case .toggleSaved: [.browse, .search, .details]
        default: nil
        }
    }

    /// Whether the action's keys work where `context` is (`nil`: a tab with no keys of its own).
    public func works(in context: Context?) -> Bool {
        guard let contexts else { return true }
        return context.map(contexts.contains) ?? false
    }

    /// The keys of the action unless `keys.toml` binds others.
    public var defaults: [Key] {
        switch self {
        case .down: [.down, .character("j")]
        case .up: [.up, .character("k")]
        case .first: [.home, .character("g")]
        case .last: [.end, .character("G")]
        case .halfDown: [.control("d")]
        case .halfUp: [.control("u")]
        case .pageDown: [.pageDown]
        case .pageUp: [.pageUp]
        case .movies: [.character("1")]
        case .series: [.character("2")]
        case .search: [.character("3")]
        case .saved: [.character("4")]
        case .settings: [.character("5")]
        case .nextTab: [.tab]
        case .previousTab: [.backTab]
        case .reload: [.character("r")]
        case .help: [.character("?")]
        case .quit: [.character("q")]
        case .thumbnails: [.character("p")]
        case .list: [.character("l")]
        case .sort: [.character("o")]
        case .reverse: [.character("O")]
        case .genres: [.character("f")]
        case .year: [.character("y")]
        case .clear: [.character("c")]
        case .filter: [.character("/")]
        case .searchField: [.character("/")]
        case .searchNextType: [.right]
        case .searchPreviousType: [.left]
        case .savedSort: [.character("s")]
        case .savedReverse: [.character("S")]
        case .savedGenres: [.character("f")]
        case .savedClear: [.character("c")]
        case .savedFilter: [.character("/")]
        case .remove: [.character("x")]
        case .undo: [.character("u")]
        case .versionBack: [.character("[")]
        case .versionForward: [.character("]")]
        case .goTo: [.character("t")]
        case .history: [.character("h")]
        case .toggleSaved: [.character("s"), .character(" ")]
        }
    }

    /// The action `name` names in `keys.toml`, under its name or a former one: Saved's genres
    /// were gone through one at a time (`saved-next-genre`, `saved-previous-genre`) before its
    /// picker was Movies' multi-select.
    public init?(named name: String) {
        switch name {
        case "saved-next-genre": self = .savedGenres
        case "saved-previous-genre": self = .savedClear
        default: self.init(rawValue: name)
        }
    }

    /// The key `AppUpdate` takes for the action: its first default.
    public var canonical: Key { defaults[0] }

    /// Whether two actions may not share a key: they work in one place (both everywhere, or one
    /// everywhere, or both on one tab or screen).
    func overlaps(_ other: KeyAction) -> Bool {
        guard let mine = contexts, let theirs = other.contexts else { return true }
        return !mine.isDisjoint(with: theirs)
    }
}
