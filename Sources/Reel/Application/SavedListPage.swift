import Ledger

/// One page of the saved list (`Application.savedPage`): the report, whose items in `range` are
/// the page, and where the next page starts.
public struct SavedListPage: Sendable {
    /// The report: the whole list filled in (an order or a filter that needs every title's
    /// details), or only the page's titles (the order saved, no filter).
    public let report: SavedListReport
    /// The page's items in `report.items`.
    public let range: Range<Int>
    /// The last item given and its place in the whole list, when more follow.
    public let next: (key: MediaKey, index: Int)?
}
