/// The saved list as the Saved tab shows it: the hydrated rows, in the order saved.
public struct SavedList: Sendable, Equatable {
    public var rows: [TitleRow] = []
    public var cursor = ListCursor()
    public var loading = false
    /// Loaded at least once.
    public var loaded = false
    public var error: String?

    public init() {}
}
