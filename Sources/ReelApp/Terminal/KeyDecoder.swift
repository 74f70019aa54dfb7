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

    /// Keys read at once with escape sequences curses did not know taken out whole: pasted text
    /// or a key curses has no name for (`ESC [ 3 1 m`, `ESC O x`, `ESC ] … BEL`) is not read as
    /// esc followed by commands. An `esc` pressed alone stays.
    public static func droppingUnknownSequences(_ keys: [Key]) -> [Key] {
        var kept: [Key] = []
        var index = 0
        func scalar(_ key: Key) -> UInt32? {
            if case .character(let c) = key, c.unicodeScalars.count == 1 { return c.unicodeScalars.first!.value }
            return nil
        }
        while index < keys.count {
            guard keys[index] == .escape, index + 1 < keys.count, let introducer = scalar(keys[index + 1]) else {
                kept.append(keys[index])
                index += 1
                continue
            }
            switch introducer {
            case 0x5B:  // CSI: parameters and intermediates (0x20–0x3F), then one final byte (0x40–0x7E)
                index += 2
                while index < keys.count, let value = scalar(keys[index]), (0x20...0x3F).contains(value) { index += 1 }
                if index < keys.count, let value = scalar(keys[index]), (0x40...0x7E).contains(value) { index += 1 }
            case 0x4F:  // SS3: one more byte
                index = min(keys.count, index + 3)
            case 0x5D:  // OSC: up to BEL (ctrl-g) or ESC \
                index += 2
                while index < keys.count, keys[index] != .control("g"), keys[index] != .escape { index += 1 }
                if index < keys.count, keys[index] == .control("g") { index += 1 }
                if index + 1 < keys.count, keys[index] == .escape, keys[index + 1] == .character("\\") { index += 2 }
            default:
                kept.append(keys[index])
                index += 1
            }
        }
        return kept
    }
}
