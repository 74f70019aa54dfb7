/// The Search tab: the field and whether keys go into it, the type filter, the results of the
/// newest search, and the default person (shown while the field is empty).
///
/// Every change of the text or the filter is a new generation. A search runs only after 300 ms
/// without a change (`AppEffect.search(.debounce)` comes back as `.due` with its generation, and
/// only the newest generation's search is asked for), and an answer is applied only when its
/// generation is still the newest: a response to an older query never replaces a newer one.
public struct SearchState: Sendable, Equatable {
    /// Benedict Cumberbatch's TMDb id: the person the Search tab shows while the field is empty.
    public static let defaultPersonID = 71580

    public var text = ""
    /// Keys go into the field (`/` focuses it; `enter`, `↓` or `esc` leave it for the results).
    public var editing = true
    public var filter = SearchFilter.all
    /// Bumped by every change of the text or the filter.
    public var generation = 0
    /// The generation whose search is being asked for.
    public var searching: Int?
    /// The generation the results are for; `nil` before any.
    public var resultsGeneration: Int?
    /// The text and filter the results answer.
    public var resultsText = ""
    public var resultsFilter = SearchFilter.all
    public var results: [SearchResult] = []
    /// TMDb's pages of the answer read so far, and how many it has (the next is asked for as the
    /// cursor comes within a screen of the end).
    public var resultsPages = 0
    public var totalPages: Int?
    /// The page being asked for, past the first.
    public var loadingPage: Int?
    public var cursor = ListCursor()
    /// Why the newest search failed; `r` asks again.
    public var error: String?
    /// The person shown while the field is empty, loaded the first time the tab shows.
    public var defaultPerson: PersonPage?
    public var defaultPersonLoading = false
    public var defaultPersonError: String?
    public var defaultCursor = ListCursor()

    public init() {}

    /// The field is empty (or blank): the default person's filmography shows instead of results.
    /// Asked at every key, so it looks no further than the first character that is not a space
    /// (`query` would copy the whole text each time: a paste of thousands took seconds).
    public var showsDefaultPerson: Bool { text.allSatisfy(\.isWhitespace) }

    /// The query the field asks for: its text without surrounding spaces.
    public var query: String { String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }

    /// How many rows the list under the field has.
    public var rowCount: Int { showsDefaultPerson ? defaultPerson?.credits.count ?? 0 : results.count }
}
