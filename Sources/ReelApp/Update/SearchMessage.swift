/// What came back for the Search tab.
public enum SearchMessage: Sendable, Equatable {
    /// A debounce of `generation` ended.
    case due(generation: Int)
    case found(generation: Int, [SearchResult])
    case failed(generation: Int, message: String)
    case defaultPersonLoaded(PersonPage)
    case defaultPersonFailed(String)
}
