/// What the terminal can show, as `TerminalProbe` found out by asking it: how pictures are drawn
/// (`mode`), with how many colours symbols are drawn, the cell size in pixels, tmux in between,
/// whether redraws can be made atomic, and one line on how the mode was decided.
public struct TerminalCapabilities: Sendable, Equatable {
    /// How pictures are drawn.
    public var mode: GraphicsMode
    /// The colours for symbols (and for any other colour output).
    public var colours: ColourDepth
    /// Pixels per cell, when the terminal said (`CSI 16 t`, or `CSI 14 t` and the window's cells,
    /// or the pixel size of `TIOCGWINSZ`); nil when nothing is known (renderers assume
    /// `CellSize.assumed`).
    public var cellSize: CellSize?
    /// Nil outside tmux.
    public var tmux: TmuxPassthrough?
    /// Whether the terminal has synchronized output (mode 2026, `CSI ? 2026 h/l`): a redraw
    /// wrapped in it appears at once, without flicker.
    public var synchronizedOutput: Bool
    /// The terminal's name and version as it gave them (XTVERSION, or inside tmux the terminal
    /// tmux runs in), printable ASCII only.
    public var terminalName: String?
    /// One line on how `mode` was decided, e.g. "kitty graphics (the terminal answered the kitty
    /// query)" or "none (REEL_IMAGES=none)".
    public var reason: String

    public init(
        mode: GraphicsMode, colours: ColourDepth, cellSize: CellSize? = nil, tmux: TmuxPassthrough? = nil,
        synchronizedOutput: Bool = false, terminalName: String? = nil, reason: String
    ) {
        self.mode = mode
        self.colours = colours
        self.cellSize = cellSize
        self.tmux = tmux
        self.synchronizedOutput = synchronizedOutput
        self.terminalName = terminalName.map { Self.printable($0) }
        self.reason = Self.printable(reason, limit: 300)
    }

    /// No pictures, for output that is not a terminal (a pipe, a file) or when they are turned off.
    public static func noPictures(reason: String) -> TerminalCapabilities {
        TerminalCapabilities(mode: .none, colours: .indexed16, reason: "none (\(reason))")
    }

    /// Everything on one line, for `reel about --verbose`: "images: kitty graphics (the terminal
    /// answered the kitty query); truecolor; cells 10×20 px; synchronized output; terminal
    /// kitty(0.35.2)".
    public var summary: String {
        var parts = ["images: \(reason)", colours.label]
        parts.append(cellSize.map { "cells \($0)" } ?? "cell size unknown (assuming \(CellSize.assumed))")
        if synchronizedOutput { parts.append("synchronized output") }
        if let tmux { parts.append(tmux.passthrough ? "tmux with allow-passthrough" : "tmux without allow-passthrough") }
        if let terminalName { parts.append("terminal \(terminalName)") }
        return parts.joined(separator: "; ")
    }

    /// A terminal's words keep only printable ASCII (no escape sequence, no bidi override), and
    /// not too many of them.
    static func printable(_ text: String, limit: Int = 64) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { (0x20...0x7E).contains($0.value) }.prefix(limit)))
    }
}
