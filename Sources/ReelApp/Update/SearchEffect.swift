/// The Search tab's I/O: waiting out the debounce, searching, the default person.
public enum SearchEffect: Sendable, Equatable {
    /// Wait 300 ms, then say `.due(generation)`: typing that goes on makes a newer generation, and
    /// only the newest one's wait ends in a search.
    case debounce(generation: Int)
    /// Search for `text` among `filter`'s kind, TMDb's page `page` of its answer; the answer
    /// carries `generation`.
    case find(text: String, filter: SearchFilter, generation: Int, page: Int = 1)
    /// The default person's filmography (`SearchState.defaultPersonID`).
    case loadDefaultPerson

    /// How long typing must pause before a search is asked for.
    public static let debounceMilliseconds = 300
}
