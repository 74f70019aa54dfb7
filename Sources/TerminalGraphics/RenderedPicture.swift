/// A picture as the bytes that draw it in a terminal, and the box of cells it takes.
public struct RenderedPicture: Sendable, Equatable {
    /// How it is drawn.
    public let mode: GraphicsMode
    /// Written at the cursor, they draw the picture with its top-left corner at the cursor. Where
    /// the cursor is afterwards depends on the mode (see `PictureRenderer.render`); to go on from
    /// a known place, save the cursor before (`ESC 7`) and restore it after (`ESC 8`), or move it.
    public let bytes: [UInt8]
    /// The cells the picture takes, at most the box asked for, with the picture's aspect ratio.
    public let columns: Int
    public let rows: Int
    /// Symbols only: one line of characters per row (no newline, no cursor movement), each
    /// ending with an SGR reset, for a caller that places each line itself and writes text beside
    /// it. Empty for graphics modes, whose picture is one sequence.
    public let lines: [[UInt8]]

    public init(mode: GraphicsMode, bytes: [UInt8], columns: Int, rows: Int, lines: [[UInt8]] = []) {
        self.mode = mode
        self.bytes = bytes
        self.columns = columns
        self.rows = rows
        self.lines = lines
    }

    /// Nothing to draw (`GraphicsMode.none`).
    public static let empty = RenderedPicture(mode: .none, bytes: [], columns: 0, rows: 0)
}
