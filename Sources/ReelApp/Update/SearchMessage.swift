/// What came back for the Search tab.
public enum SearchMessage: Sendable, Equatable {
    /// A debounce of `generation` ended.
    case due(generation: Int)
    /// Page `page` of the answer, of `totalPages` (nil: that page is the last).
    case found(generation: Int, [SearchResult], page: Int = 1, totalPages: Int? = nil)
    case failed(generation: Int, message: String)
    case defaultPersonLoaded(PersonPage)
    case defaultPersonFailed(String)
}
