/// Takes escape sequences curses did not name out of the keys, whole, so none is read as esc
/// followed by commands: pasted text with colours (`ESC [ 3 1 m`), a key curses has no name for
/// (`ESC O x`), and a terminal's answer to a query that came after the probe stopped listening (on
/// a busy machine): device attributes (`ESC [ ? 6 2 c`), XTVERSION (`ESC P > | tmux 3.3a ESC \`),
/// kitty's (`ESC _ G … ESC \`), OSC (`ESC ] … BEL`). A sequence may arrive over several reads: one
/// still open at the end of a read goes on in the next, for up to `patience` (then what follows
/// is keys again, so a sequence whose end was lost cannot swallow typing). An `esc` pressed alone
/// stays, and so does alt with a key (ESC and the key, ending a read).
struct KeySequenceFilter {
    private enum Open {
        /// CSI: parameters and intermediates (0x20–0x3F) until one final byte (0x40–0x7E).
        case controlSequence
        /// DCS, OSC, APC, PM, SOS: until BEL or ESC \ (`afterEscape`: the ESC has come).
        case string(afterEscape: Bool)
        /// SS3: one byte more.
        case shift
    }

    private var open: (sequence: Open, since: ContinuousClock.Instant)?
    /// How long a sequence begun in one read may go on in the next ones.
    static let patience: Duration = .seconds(1)

    /// `keys` (read at once, at `now`) without the sequences in them and without the rest of one
    /// begun before.
    mutating func filter(_ keys: [Key], now: ContinuousClock.Instant) -> [Key] {
        if let open, now - open.since > Self.patience { self.open = nil }
        var kept: [Key] = []
        var index = 0
        if var sequence = open?.sequence {
            while index < keys.count, let next = Self.advance(sequence, keys[index]) {
                sequence = next
                index += 1
            }
            if index == keys.count {
                open?.sequence = sequence
                return []
            }
            index += 1  // the sequence's last key
            open = nil
        }
        while index < keys.count {
            guard keys[index] == .escape, index + 1 < keys.count, let sequence = Self.introduced(by: keys[index + 1]),
                !(index + 2 == keys.count && Self.isString(sequence))
            else {
                // ESC and a key ending the read (alt+P, alt+]) are two keys: a terminal's answer
                // comes in one write, its introducer never last.
                kept.append(keys[index])
                index += 1
                continue
            }
            var state = sequence
            index += 2
            while index < keys.count, let next = Self.advance(state, keys[index]) {
                state = next
                index += 1
            }
            if index == keys.count {
                open = (state, now)
                break
            }
            index += 1
        }
        return kept
    }

    private static func isString(_ sequence: Open) -> Bool {
        if case .string = sequence { return true }
        return false
    }

    /// The sequence `key` begins after an ESC; nil when ESC and `key` are two keys.
    private static func introduced(by key: Key) -> Open? {
        switch scalar(key) {
        case 0x5B: .controlSequence
        case 0x4F: .shift
        case 0x50, 0x5D, 0x5F, 0x5E, 0x58: .string(afterEscape: false)  // P ] _ ^ X
        default: nil
        }
    }

    /// The state after `key` inside `sequence`; nil when `key` ends it (and is part of it).
    private static func advance(_ sequence: Open, _ key: Key) -> Open? {
        switch sequence {
        case .controlSequence:
            guard let value = scalar(key), (0x20...0x3F).contains(value) else { return nil }
            return .controlSequence
        case .shift:
            return nil
        case .string(let afterEscape):
            if key == .control("g") || (afterEscape && key == .character("\\")) { return nil }
            return .string(afterEscape: key == .escape)
        }
    }

    private static func scalar(_ key: Key) -> UInt32? {
        if case .character(let c) = key, c.unicodeScalars.count == 1 { return c.unicodeScalars.first!.value }
        return nil
    }
}
