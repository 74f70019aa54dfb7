import Presentation
import Reel
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What stdout is: colour only on a terminal, and never with `NO_COLOR` or `TERM=dumb`.
enum Terminal {
    static let colours: Bool = {
        let env = ProcessInfo.processInfo.environment
        if let noColor = env["NO_COLOR"], !noColor.isEmpty { return false }
        if env["TERM"] == "dumb" { return false }
        return isatty(1) == 1
    }()

    static func bold(_ text: String) -> String { paint(text, "1") }
    static func dim(_ text: String) -> String { paint(text, "2") }
    static func green(_ text: String) -> String { paint(text, "32") }
    static func yellow(_ text: String) -> String { paint(text, "33") }

    /// `text` without the colour codes `paint` adds: what the terminal shows.
    static func unpainted(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        var result = ""
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func paint(_ text: String, _ code: String) -> String {
        colours ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The colour sequences `paint` writes, which output may keep (`Console.line`); none without
    /// colours, so then no ESC at all reaches stdout.
    static let styles: Set<String> = colours ? Set(["0", "1", "2", "32", "33"].map { "\u{1B}[\($0)m" }) : []

    /// Columns to lay text out in: the terminal's width when stdout is one, else `COLUMNS`,
    /// else 100.
    static let width: Int = {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 100
    }()

    /// Rows of the terminal when stdout is one, else `LINES`, else 24 (for pictures, which must
    /// not be taller than the screen).
    static let height: Int = {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 {
            return Int(size.ws_row)
        }
        if let lines = ProcessInfo.processInfo.environment["LINES"].flatMap(Int.init), lines > 0 { return lines }
        return 24
    }()

    /// A line of prose wrapped at word boundaries to `width` columns (a single long word, such as
    /// a URL, stays whole; CJK text, which has no spaces, breaks between characters).
    static func fit(_ text: String) -> String {
        DisplayWidth.columns(text) <= width ? text : wrap(text, width: width).joined(separator: "\n")
    }

    /// Words wrapped to `width` columns (`DisplayWidth.wrap`); with `breakingWords`, a word wider
    /// than a line (a path) is broken too, after a `/` where it can be.
    static func wrap(_ text: String, width: Int, breakingWords: Bool = false) -> [String] {
        DisplayWidth.wrap(text, width: width, breakingWords: breakingWords)
    }

    /// A notice for people, on stderr (stdout stays clean for pipes); none with `--quiet`.
    static func notice(_ text: String) {
        guard !Notes.isQuiet else { return }
        Console.error("note: \(text)")
    }
}
