/// A key as the app understands it, decoded from curses (`KeyDecoder`).
public enum Key: Sendable, Hashable {
    /// A printable character (`j`, `?`, `1`, `é`).
    case character(Character)
    /// A control character, named by its letter: ctrl-d is `.control("d")`.
    case control(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace
}
