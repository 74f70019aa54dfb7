/// How many colours symbols are drawn with. Graphics modes (kitty, iTerm2, sixel) carry their own
/// pixels; this is for the characters of `GraphicsMode.symbols`.
public enum ColourDepth: String, Sendable, CaseIterable {
    /// 24-bit colour (`CSI 38;2;r;g;b m`).
    case truecolor
    /// The xterm 256-colour palette (`CSI 38;5;n m`).
    case indexed256
    /// The 16 ANSI colours, which every colour terminal has.
    case indexed16

    public var label: String {
        switch self {
        case .truecolor: "truecolor"
        case .indexed256: "256 colours"
        case .indexed16: "16 colours"
        }
    }
}
