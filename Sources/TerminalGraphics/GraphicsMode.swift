/// How a terminal can draw a picture, best first.
public enum GraphicsMode: String, Sendable, CaseIterable {
    /// kitty's graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm, mintty).
    case iterm
    /// DEC sixel (xterm -ti vt340, foot, mlterm, WezTerm, Windows Terminal).
    case sixel
    /// Unicode block and half-block characters in colour: any terminal.
    case symbols
    /// No pictures.
    case none
}
