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

    /// What a person reads in a reason or a summary ("kitty graphics", "sixel").
    public var label: String {
        switch self {
        case .kitty: "kitty graphics"
        case .iterm: "iTerm2 inline images"
        case .sixel: "sixel"
        case .symbols: "symbols"
        case .none: "none"
        }
    }

    /// Whether the mode draws pixels (an escape sequence carrying an image) rather than characters.
    public var isGraphics: Bool { self == .kitty || self == .iterm || self == .sixel }

    /// The value of `REEL_IMAGES` that chooses this mode.
    init?(override value: String) {
        switch value.lowercased() {
        case "kitty": self = .kitty
        case "iterm", "iterm2": self = .iterm
        case "sixel", "sixels": self = .sixel
        case "symbols": self = .symbols
        case "none", "off": self = .none
        default: return nil
        }
    }
}
