/// A picture as the terminal draws it, rendered off the app's loop (the effect runner decodes and
/// renders it for its box): the bytes, the cells they take, and what the driver needs to know to
/// place it and take it away again without leaving pixels behind.
public struct DrawnPicture: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Coloured block characters: cells like text. Each row is a line of its own, so a row
        /// curses wrote over is drawn again alone, and text written over the cells removes them.
        case symbols
        /// kitty graphics: an image over the cells, by its id; it stays until deleted by that id.
        case kitty(imageID: UInt32)
        /// Sixel or an iTerm2 inline image: pixels in the cells, drawn whole (text written over
        /// the cells removes them).
        case pixels
    }

    public var kind: Kind
    /// Written at the top-left cell, they draw the picture (kitty and pixels).
    public var bytes: [UInt8]
    /// Symbols: one line of bytes per row (no cursor movement), each ending with an SGR reset.
    public var lines: [[UInt8]]
    /// The cells it takes: at most its box's, with the picture's aspect ratio.
    public var columns: Int
    public var rows: Int

    public init(kind: Kind, bytes: [UInt8], lines: [[UInt8]] = [], columns: Int, rows: Int) {
        self.kind = kind
        self.bytes = bytes
        self.lines = lines
        self.columns = columns
        self.rows = rows
    }

    /// What it weighs in memory, for the app's bound on pictures kept.
    var size: Int { bytes.count + lines.reduce(0) { $0 + $1.count } }
}
