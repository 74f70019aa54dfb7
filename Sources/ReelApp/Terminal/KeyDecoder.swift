import CNcursesW

/// Keys from `wgetch`: a character (put together by `UTF8Assembler`) or a curses key code, as a `Key`.
/// KEY_RESIZE is not a key; the driver reads it as a new size.
public enum KeyDecoder {
    /// A character (`UTF8Assembler`): control characters by name, the rest as typed.
    public static func character(_ value: UInt32) -> Key? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(value) + 0x60)))
        default:
            guard let scalar = Unicode.Scalar(value), value >= 0x20 else { return nil }
            return .character(Character(scalar))
        }
    }

    /// A key code `wget_wch` returned with KEY_CODE_YES; nil for one the app does not use.
    public static func code(_ value: UInt32) -> Key? {
        switch Int32(truncatingIfNeeded: value) {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_NPAGE: .pageDown
        case KEY_PPAGE: .pageUp
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_ENTER: .enter
        case KEY_BTAB: .backTab
        case KEY_BACKSPACE: .backspace
        default: nil
        }
    }
}
