import Foundation
import Presentation
import Reel
import TerminalGraphics

#if canImport(Glibc)
import Glibc
#endif

/// Pictures on standard output, when it is a terminal that can show them: what the terminal can
/// do is asked once per process (`TerminalProbe`, ≤ 150 ms, only when stdin is a terminal too),
/// and the picture is drawn in a box of cells, beside text or above it. Never in a pipe, never
/// with `--json`, `--no-poster`, `REEL_IMAGES=none` or `TERM=dumb`.
enum TerminalPictures {
    /// The terminal's abilities, asked on first use; nil when stdout is no terminal or pictures
    /// are off.
    static let capabilities: TerminalCapabilities? = {
        let environment = ProcessInfo.processInfo.environment
        guard isatty(STDOUT_FILENO) == 1, environment["TERM"] != "dumb" else { return nil }
        let found = TerminalProbe.capabilities(input: STDIN_FILENO, output: STDOUT_FILENO, environment: environment)
        if Notes.level == .verbose { Terminal.notice("images: \(found.reason)") }
        return found.mode == .none ? nil : found
    }()

    /// The pixels of a cell (what the terminal said, else a common 10 × 20).
    static var cell: (width: Int, height: Int) {
        guard let size = capabilities?.cellSize else { return (10, 20) }
        return (size.width, size.height)
    }

    /// The size of image to fetch for a box of `columns` × `rows` cells.
    static func size(columns: Int, rows: Int) -> ImageSizeChoice {
        .filling(width: columns * cell.width, height: rows * cell.height)
    }

    /// `bytes` decoded and rendered into at most `columns` × `rows` cells (the aspect kept).
    /// Throws a data failure (65) naming what is wrong when the image cannot be drawn.
    static func render(_ bytes: [UInt8], columns: Int, rows: Int) throws -> RenderedPicture {
        guard let capabilities else { throw Failure(.usage, "pictures are not drawn at this terminal") }
        do {
            let picture = try PictureDecoder().decode(bytes, atLeast: (columns * cell.width, rows * cell.height))
            return try PictureRenderer(capabilities: capabilities).render(picture, columns: columns, rows: rows)
        } catch let error as PictureError {
            throw Failure(.data, "could not draw the image: \(error)")
        }
    }

    /// `render`, or nil with a note saying why (for a picture that is an extra beside text).
    static func renderOrNote(_ bytes: [UInt8], columns: Int, rows: Int, what: String) -> RenderedPicture? {
        do {
            return try render(bytes, columns: columns, rows: rows)
        } catch {
            Terminal.notice("the \(what) is not shown: \((error as? any KindedError)?.summary ?? String(describing: error))")
            return nil
        }
    }

    /// The picture alone; the cursor ends on the line below it (graphics are drawn into rows
    /// reserved first, as beside text, since kitty leaves the cursor where the picture began and
    /// sixel wherever the terminal puts it).
    static func draw(_ picture: RenderedPicture) {
        if !picture.lines.isEmpty {
            for line in picture.lines { Console.write(line + Array("\n".utf8)) }
        } else {
            draw(picture, beside: [])
        }
    }

    /// The picture at the left and `text` (lines already fitted to the width left) beside it.
    /// Symbols are interleaved line by line; graphics are drawn into rows reserved first (so the
    /// screen does not scroll under them), and the text is written beside with cursor moves.
    static func draw(_ picture: RenderedPicture, beside text: [String], gap: Int = 2) {
        if !picture.lines.isEmpty {
            let lines = picture.lines
            for row in 0..<max(lines.count, text.count) {
                var out = row < lines.count ? lines[row] : Array(String(repeating: " ", count: picture.columns).utf8)
                if row < text.count { out += Array((String(repeating: " ", count: gap) + TerminalText.output(text[row], keepingStyles: Terminal.styles)).utf8) }
                Console.write(out + Array("\n".utf8))
            }
            return
        }
        let rows = picture.rows
        var out = Array(String(repeating: "\n", count: rows).utf8)
        out += Array("\u{1B}[\(rows)A\u{1B}7".utf8) + picture.bytes + Array("\u{1B}8".utf8)
        for line in text { out += Array("\u{1B}[\(picture.columns + gap)C\(TerminalText.output(line, keepingStyles: Terminal.styles))\n".utf8) }
        if text.count < rows { out += Array(String(repeating: "\n", count: rows - text.count).utf8) }
        Console.write(out)
    }
}
