public import Reel

/// A title's details opened over the tabs: the title it was opened from (shown while the
/// details load), the details once they come, and the cursor on their lines.
public struct DetailsScreen: Sendable, Equatable {
    public var key: MediaKey
    /// The title as the list it was opened from named it.
    public var title: String
    public var details: TitleDetails?
    public var loading = true
    /// Why the details failed; `r` asks again.
    public var error: String?
    /// On the lines of `DetailsLayout`.
    public var cursor = ListCursor()

    public init(key: MediaKey, title: String) {
        self.key = key
        self.title = title
    }

    /// Saved, as the ledger said last.
    public var saved: Bool { details?.saved ?? false }
}
