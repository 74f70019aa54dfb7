/// What the driver does about pictures when one screen follows another, so that no pixels of a
/// picture stay where it no longer is: the kitty images to delete, the rows curses must write whole
/// again (a picture of characters or pixels gone from them), and the pictures, or rows of them, to
/// draw after curses has written the text. A pure rule, tested without a terminal.
///
/// Curses knows nothing of the pictures: their cells are blank to it. It writes a row's cells
/// only where the row changed, but on such a row it may write over a picture's cells too (it
/// clears to the end or the beginning of a line, and rewrites short runs of unchanged cells
/// rather than move the cursor). So a picture that stays is drawn again on every row curses wrote
/// into: a symbols picture only those rows (each is a line of its own), a sixel or iTerm2 picture
/// whole; a kitty image lies over the text and is left alone.
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

    /// The plan from the pictures on screen (`before`; nil when the screen is drawn afresh) to
    /// `after`, when curses writes into the rows `rewritten` (rows that changed, rows written
    /// whole for a link).
    public init(before: [ScreenBuffer.Placement]?, after: [ScreenBuffer.Placement], rewritten: Set<Int>) {
        let old = before ?? []
        deletesAll = before == nil
        for gone in old where !after.contains(gone) {
            switch gone.picture.kind {
            case .kitty(let id): deletions.append(id)
            case .symbols, .pixels: clearedRows.formUnion(gone.lines)
            }
        }
        let touched = rewritten.union(clearedRows)
        for placement in after {
            guard before != nil, old.contains(placement) else {
                draws.append(Draw(placement: placement, rows: nil))
                continue
            }
            switch placement.picture.kind {
            case .kitty:
                continue
            case .symbols:
                let rows = placement.lines.filter(touched.contains)
                if !rows.isEmpty { draws.append(Draw(placement: placement, rows: rows)) }
            case .pixels:
                if placement.lines.contains(where: touched.contains) { draws.append(Draw(placement: placement, rows: nil)) }
            }
        }
    }

    /// Nothing to do but what curses does: no picture came, went or needs drawing again.
    public var isEmpty: Bool { deletions.isEmpty && clearedRows.isEmpty && draws.isEmpty }
}
