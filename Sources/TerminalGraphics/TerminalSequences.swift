/// Fixed escape sequences around pictures: synchronized updates, deleting kitty images, and
/// tmux's passthrough wrapping.
public enum TerminalSequences {
    private static let escape: UInt8 = 0x1B

    /// `CSI ? 2026 h` (begin) or `CSI ? 2026 l` (end): a terminal with synchronized output
    /// (`TerminalCapabilities.synchronizedOutput`) shows what is written between the two at once,
    /// so a redraw does not flicker. Others ignore the mode.
    public static func synchronizedUpdate(begin: Bool) -> [UInt8] {
        Array("\u{1B}[?2026\(begin ? "h" : "l")".utf8)
    }

    /// Deletes the kitty image `imageID` (its placements and its pixels, `d=I`), silently (`q=2`),
    /// through tmux when `tmux` says passthrough is on.
    public static func kittyDelete(imageID: UInt32, tmux: TmuxPassthrough? = nil) -> [UInt8] {
        throughTmux(Array("\u{1B}_Ga=d,d=I,i=\(imageID),q=2\u{1B}\\".utf8), tmux)
    }

    /// Deletes every kitty image placed on the screen, with their pixels (`d=A`), silently.
    public static func kittyDeleteAll(tmux: TmuxPassthrough? = nil) -> [UInt8] {
        throughTmux(Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8), tmux)
    }

    /// `bytes` wrapped for tmux to pass to the terminal it runs in (`ESC P tmux; … ESC \`, every
    /// ESC inside doubled). tmux needs `allow-passthrough` on, and keeps a sequence to a size
    /// limit: wrap each sequence of a picture on its own (`passthroughEachSequence`).
    public static func passthrough(_ bytes: [UInt8]) -> [UInt8] {
        var wrapped = Array("\u{1B}Ptmux;".utf8)
        wrapped.reserveCapacity(bytes.count + bytes.count / 64 + 10)
        for byte in bytes {
            if byte == escape { wrapped.append(escape) }
            wrapped.append(byte)
        }
        wrapped += [escape, UInt8(ascii: "\\")]
        return wrapped
    }

    /// Every escape sequence in `bytes` wrapped on its own (the many chunks of a kitty image
    /// each in one passthrough, which keeps each under tmux's limit); bytes between sequences
    /// are wrapped as they come.
    static func passthroughEachSequence(_ bytes: [UInt8]) -> [UInt8] {
        var wrapped: [UInt8] = []
        wrapped.reserveCapacity(bytes.count + bytes.count / 32 + 64)
        var start = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == escape, index + 1 < bytes.count else {
                index += 1
                continue
            }
            // Flush what came before this sequence.
            if index > start { wrapped += passthrough(Array(bytes[start..<index])) }
            let end = sequenceEnd(bytes, from: index)
            wrapped += passthrough(Array(bytes[index..<end]))
            start = end
            index = end
        }
        if start < bytes.count { wrapped += passthrough(Array(bytes[start...])) }
        return wrapped
    }

    /// Where the escape sequence at `start` ends: a control string (APC, DCS, OSC) at its ST or
    /// BEL, a CSI at its final byte, anything else after the byte following ESC.
    private static func sequenceEnd(_ bytes: [UInt8], from start: Int) -> Int {
        let introducer = bytes[start + 1]
        var index = start + 2
        switch introducer {
        case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"):
            while index < bytes.count {
                if bytes[index] == 0x07 && introducer == UInt8(ascii: "]") { return index + 1 }
                if bytes[index] == escape, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") { return index + 2 }
                index += 1
            }
            return bytes.count
        case UInt8(ascii: "["):
            while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
            return min(index + 1, bytes.count)
        default:
            return start + 2
        }
    }

    private static func throughTmux(_ bytes: [UInt8], _ tmux: TmuxPassthrough?) -> [UInt8] {
        tmux?.passthrough == true ? passthrough(bytes) : bytes
    }
}
