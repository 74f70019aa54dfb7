import Failures

/// Text from elsewhere (TMDb, an imported file, a ledger another program wrote) made safe to
/// show on a terminal, where a control character is a command: ESC starts sequences that set the
/// window title, move the cursor, rewrite the screen or (on some terminals) answer back into the
/// input; BEL rings; CR and LF rewrite or forge lines; bidi overrides show text in another order
/// than it is stored (`exe.txt` as `txt.exe`).
///
/// Every text-mode rendering of such text passes through here (its rules are `SafeText`'s, which
/// the faces that do not draw on a terminal use); `--json` does not (JSON escaping
/// keeps the bytes exact and harmless). The rules, the same everywhere:
/// - line-like characters (TAB, LF, VT, FF, CR, NEL, U+2028, U+2029) inside a field become a space;
/// - every other control character (C0, DEL, C1, ESC among them) becomes U+FFFD `�`, so that
///   tampering shows instead of acting;
/// - invisible direction and format controls (U+061C, U+200E, U+200F, U+202A–U+202E,
///   U+2066–U+206F, U+FFF9–U+FFFB) are dropped: they carry no visible text of their own.
///
/// ```swift
/// TerminalText.field("Fight\u{1B}]0;pwned\u{07}\nClub")  // "Fight�]0;pwned� Club"
/// ```
public enum TerminalText {
    /// What a field becomes on one line.
    public static func field(_ text: String) -> String {
        SafeText.line(text)
    }

    /// Text with paragraphs (an overview, a biography): one clean field per line; CR LF, CR, NEL,
    /// U+2028 and U+2029 break lines as LF does.
    public static func lines(_ text: String) -> [String] {
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where afterCR:
                afterCR = false
                continue
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029:
                lines.append(field(String(line)))
                line = String.UnicodeScalarView()
                afterCR = scalar.value == 0x0D
                continue
            default:
                afterCR = false
                line.append(scalar)
            }
        }
        lines.append(field(String(line)))
        return lines
    }

    /// Rendered output as a whole (the last line of defence, after the fields): keeps LF between
    /// lines and the colour sequences in `styles` (exact SGR sequences such as `"\u{1B}[1m"`, the
    /// ones the front end paints with itself), and neutralises everything else as `field` does.
    public static func output(_ text: String, keepingStyles styles: Set<String> = []) -> String {
        SafeText.lines(text, keepingStyles: styles)
    }

    /// True when `text` has nothing `field` would change.
    public static func isClean(_ text: String) -> Bool { field(text) == text }
}
