/// What the driver does about pictures when one screen follows another, so that no pixels of a
/// picture stay where it no longer is: the kitty images to delete, the rows curses must write whole
/// again (a picture of characters or pixels gone from them), and the pictures, or rows of them, to
/// draw after curses has written the text. A pure rule, tested without a terminal.
///
/// Curses knows nothing of the pictures: their cells are blank to it. It writes into the rows
/// that changed, and there it may write over a picture's cells too (it clears to the end or the
/// beginning of a line, and rewrites short runs of unchanged cells rather than move the cursor).
/// To move lines it may also scroll a region of the terminal, which carries the pictures' cells
/// (and kitty images) along with the text, and leaves rows it believes right unwritten. A region
/// lies between rows curses writes, so every row from the first row it writes to the last is
/// taken as touched. A picture that stays is drawn again on its touched rows: a symbols picture
/// only those rows (each is a line of its own), a sixel or iTerm2 picture whole, a kitty image
/// placed again by its id (its pixels are the terminal's already).
public struct PicturePlan: Sendable, Equatable {
    /// A picture to draw, and which screen rows of it (nil: all).
    public struct Draw: Sendable, Equatable {
        public var placement: ScreenBuffer.Placement
        public var rows: [Int]?

        public init(placement: ScreenBuffer.Placement, rows: [Int]?) {
            self.placement = placement
            self.rows = rows
        }
    }

    /// Delete every kitty image first: the screen is drawn afresh (the first frame, a resize).
    public var deletesAll = false
    /// kitty images gone (or moved: they are drawn again where they are now), by id.
    public var deletions: [UInt32] = []
    /// Rows curses writes whole again before it updates the terminal.
    public var clearedRows: Set<Int> = []
    /// What to draw once curses has updated the terminal, in order.
    public var draws: [Draw] = []
    /// kitty images that stay, placed again where they are (their old placement taken away).
    public var replacements: [ScreenBuffer.Placement] = []

    /// The plan from the pictures on screen (`before`; nil when the screen is drawn afresh) to
    /// `after`, when curses writes into the rows `written` (rows that changed, rows written whole
    /// for a link).
    public init(before: [ScreenBuffer.Placement]?, after: [ScreenBuffer.Placement], written: Set<Int>) {
        let old = before ?? []
        deletesAll = before == nil
        for gone in old where !after.contains(gone) {
            switch gone.picture.kind {
            case .kitty(let id): deletions.append(id)
            case .symbols, .pixels: clearedRows.formUnion(gone.lines)
            }
        }
        let writes = written.union(clearedRows)
        let touched = writes.min().map { $0...writes.max()! }
        for placement in after {
            guard before != nil, old.contains(placement) else {
                draws.append(Draw(placement: placement, rows: nil))
                continue
            }
            let rows = placement.lines.filter { touched?.contains($0) == true }
            guard !rows.isEmpty else { continue }
            switch placement.picture.kind {
            case .kitty: replacements.append(placement)
            case .symbols: draws.append(Draw(placement: placement, rows: rows))
            case .pixels: draws.append(Draw(placement: placement, rows: nil))
            }
        }
    }

    /// Nothing to do but what curses does: no picture came, went or needs drawing again.
    public var isEmpty: Bool { deletions.isEmpty && clearedRows.isEmpty && draws.isEmpty && replacements.isEmpty }
}
