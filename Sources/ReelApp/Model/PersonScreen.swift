/// A person opened over the tabs (from a search result or a title's cast): their filmography
/// once it loads, and the cursor on it.
public struct PersonScreen: Sendable, Equatable {
    /// TMDb's person id.
    public var id: Int
    /// The name the person was opened by (shown while the page loads).
    public var name: String
    public var page: PersonPage?
    public var loading = true
    /// Why the page failed; `r` asks again.
    public var error: String?
    public var cursor = ListCursor()

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}
