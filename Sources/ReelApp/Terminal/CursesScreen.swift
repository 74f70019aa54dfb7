import CNcursesW
import Glibc
import TerminalGraphics

/// The terminal under ncursesw: started in raw mode (ctrl-c is a key, so it always reaches the
/// app), without echo, with keypad keys decoded and reads that never wait; a `ScreenBuffer` is
/// copied in row by row where it changed, and curses sends the terminal the least it must.
/// `close()` gives the terminal back as it was (endwin); the driver calls it on every way out.
/// With `hyperlinks` (and a terminal that can save, move and restore the cursor), the buffer's
/// links are written over what curses drew as OSC 8 hyperlinks, on frames that changed them. The
/// buffer's pictures are written over the blank cells curses left for them, as `PicturePlan`
/// says: drawn when they come, taken away when they go (kitty images deleted by id, other rows
/// written whole again by curses), drawn again (a kitty image placed again) where curses wrote
/// over them or may have scrolled them, the whole frame in one synchronized update where the
/// terminal has them.
final class CursesScreen {
    enum Event { case key(Key), resized }

    private var shown: ScreenBuffer?
    private var open = false
    private let colors: Bool
    private var hyperlinks = false
    /// How pictures are drawn (`TerminalProbe`'s answer).
    private let graphics: TerminalCapabilities

    init(colors: Bool, hyperlinks: Bool, graphics: TerminalCapabilities) throws(TerminalAppError) {
        self.graphics = graphics
        setlocale(LC_ALL, "")
        // A dumb terminal has no cursor to move: curses would draw every row on one line.
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard term != "dumb", reel_curses_open() == 0 else {
            throw .setup("curses cannot drive this terminal (TERM=\(getenv("TERM").map { String(cString: $0) } ?? "unset"))")
        }
        open = true
        if graphics.mode != .none { reel_curses_keep_columns() }
        self.hyperlinks = hyperlinks && reel_curses_can_link() != 0
        self.colors = colors && has_colors()
        if self.colors {
            start_color()
            use_default_colors()
            init_pair(Int16(CellStyle.Color.saved.rawValue), Int16(COLOR_YELLOW), -1)
            init_pair(Int16(CellStyle.Color.accent.rawValue), Int16(COLOR_CYAN), -1)
            init_pair(Int16(CellStyle.Color.error.rawValue), Int16(COLOR_RED), -1)
            // Ratings in the eight colours every colour terminal has (16-colour ones too).
            init_pair(Int16(CellStyle.Color.good.rawValue), Int16(COLOR_GREEN), -1)
            init_pair(Int16(CellStyle.Color.fair.rawValue), Int16(COLOR_YELLOW), -1)
            init_pair(Int16(CellStyle.Color.poor.rawValue), Int16(COLOR_RED), -1)
        }
    }

    deinit { close() }

    /// Gives the terminal back (endwin) without a kitty image left on it; harmless to call twice.
    func close() {
        guard open else { return }
        open = false
        if graphics.mode == .kitty { send(TerminalSequences.kittyDeleteAll(tmux: graphics.tmux)) }
        endwin()
    }

    /// Bytes typed before curses took the terminal (while it was asked what it can show), read
    /// as keys before any typed since.
    func unread(_ bytes: [UInt8]) {
        let kept = Array(bytes.prefix(64))
        kept.withUnsafeBufferPointer { reel_curses_unread($0.baseAddress, $0.count) }
    }

    var size: (width: Int, height: Int) { (Int(reel_curses_columns()), Int(reel_curses_rows())) }

    /// After SIGWINCH: curses told of the kernel's size when its own handler did not (KEY_RESIZE
    /// follows from curses either way).
    func followTerminalSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard reel_terminal_size(&rows, &columns) == 0, rows != reel_curses_rows() || columns != reel_curses_columns() else { return }
        resizeterm(rows, columns)
    }

    /// The bytes of a character whose rest has not been read yet, kept for the next call.
    private var assembler = UTF8Assembler()

    /// The keys waiting, and resizes among them.
    func events() -> [Event] {
        var events: [Event] = []
        while true {
            let value = reel_curses_key()
            if value == ERR { return cleaned(events) }
            if value > 0xFF {
                assembler.reset()
                if value == KEY_RESIZE {
                    events.append(.resized)
                } else if let key = KeyDecoder.code(UInt32(value)) {
                    events.append(.key(key))
                }
            } else if let scalar = assembler.take(UInt8(value)), let key = KeyDecoder.character(scalar.value) {
                events.append(.key(key))
            }
        }
    }

    /// Escape sequences curses did not name, followed from one read to the next.
    private var sequences = KeySequenceFilter()

    /// `events` with unknown escape sequences taken out of each run of keys (`KeySequenceFilter`).
    private func cleaned(_ events: [Event]) -> [Event] {
        let now = ContinuousClock.now
        var out: [Event] = []
        var run: [Key] = []
        for event in events {
            if case .key(let key) = event {
                run.append(key)
            } else {
                out += sequences.filter(run, now: now).map(Event.key)
                run = []
                out.append(event)
            }
        }
        return out + sequences.filter(run, now: now).map(Event.key)
    }

    /// Shows `buffer`: rows that differ from the one shown last are written, then curses updates
    /// the terminal; then its links, when they changed or a row holding one was written; then its
    /// pictures (`PicturePlan`).
    func show(_ buffer: ScreenBuffer) {
        if let shown, shown.width != buffer.width || shown.height != buffer.height { self.shown = nil }
        if shown == nil { erase() }
        let before = shown
        // A terminal keeps a cell's link until the cell is written again: rows that lose one are
        // written whole.
        var rewritten = Set<Int>()
        if hyperlinks, let before {
            rewritten = Set(before.links.filter { !buffer.links.contains($0) }.map(\.row))
            for row in rewritten { reel_curses_redraw_row(Int32(row)) }
        }
        let changed = Set((0..<buffer.height).filter { before?.rows[$0] != buffer.rows[$0] })
        let plan = PicturePlan(before: before?.pictures, after: buffer.pictures, written: changed.union(rewritten))
        for row in plan.clearedRows { reel_curses_redraw_row(Int32(row)) }
        for y in changed.sorted() {
            for (x, cell) in buffer.rows[y].enumerated() where !cell.text.isEmpty {
                put(cell, row: y, column: x)
            }
        }
        shown = buffer
        let synchronized = graphics.synchronizedOutput && !plan.isEmpty
        if synchronized { send(TerminalSequences.synchronizedUpdate(begin: true)) }
        if graphics.mode == .kitty { delete(plan) }
        refresh()
        // Links again only where curses may have written over them, or when they changed.
        if hyperlinks, !buffer.links.isEmpty, before?.links != buffer.links || buffer.links.contains(where: { changed.contains($0.row) }) {
            for link in buffer.links { write(link, of: buffer) }
        }
        for draw in plan.draws { self.draw(draw) }
        for placement in plan.replacements { replace(placement) }
        if synchronized { send(TerminalSequences.synchronizedUpdate(begin: false)) }
    }

    /// The kitty images the plan takes away (all of them on a screen drawn afresh).
    private func delete(_ plan: PicturePlan) {
        var bytes = plan.deletesAll ? TerminalSequences.kittyDeleteAll(tmux: graphics.tmux) : []
        for id in plan.deletions { bytes += TerminalSequences.kittyDelete(imageID: id, tmux: graphics.tmux) }
        if !bytes.isEmpty { send(bytes) }
    }

    /// A picture, or some of its rows, at its place: the cursor saved and moved there (terminfo's
    /// sc and cup), the bytes, the cursor restored. Symbols row by row, each line at its own row;
    /// a graphics picture whole from its top-left cell.
    private func draw(_ draw: PicturePlan.Draw) {
        let placement = draw.placement
        let picture = placement.picture
        guard case .symbols = picture.kind else {
            guard reel_link_begin(Int32(placement.row), Int32(placement.column)) == OK else { return }
            picture.bytes.withUnsafeBufferPointer { reel_picture_write($0.baseAddress, $0.count) }
            reel_link_end()
            return
        }
        for row in draw.rows ?? Array(placement.lines) {
            let index = row - placement.row
            guard picture.lines.indices.contains(index), reel_link_begin(Int32(row), Int32(placement.column)) == OK else { continue }
            picture.lines[index].withUnsafeBufferPointer { reel_picture_write($0.baseAddress, $0.count) }
            reel_link_end()
        }
    }

    /// A kitty image placed again where it is: its placements deleted (its pixels kept, `d=i`),
    /// then put at its top-left cell (`a=p`, the cursor left where it was).
    private func replace(_ placement: ScreenBuffer.Placement) {
        guard case .kitty(let id) = placement.picture.kind else { return }
        func sequence(_ text: String) -> [UInt8] {
            let bytes = Array("\u{1B}_G\(text),q=2\u{1B}\\".utf8)
            return graphics.tmux?.passthrough == true ? TerminalSequences.passthrough(bytes) : bytes
        }
        send(sequence("a=d,d=i,i=\(id)"))
        guard reel_link_begin(Int32(placement.row), Int32(placement.column)) == OK else { return }
        let put = sequence("a=p,i=\(id),C=1")
        put.withUnsafeBufferPointer { reel_picture_write($0.baseAddress, $0.count) }
        reel_link_end()
    }

    /// Bytes that are no cell's (a synchronized update's mark, a kitty deletion), sent at once.
    private func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { reel_picture_send($0.baseAddress, $0.count) }
    }

    /// `link`'s cells again, as an OSC 8 hyperlink: the cursor saved and moved there (terminfo's
    /// sc and cup), each cell's attributes set by curses (vid_puts, so its record of them stays
    /// true), the same text curses drew inside the link's open and close, then normal attributes
    /// and the cursor restored.
    private func write(_ link: ScreenBuffer.Link, of buffer: ScreenBuffer) {
        guard reel_link_begin(Int32(link.row), Int32(link.column)) == OK else { return }
        reel_link_write("\u{1B}]8;;\(link.url)\u{1B}\\")
        var style: CellStyle?
        for cell in buffer.rows[link.row][link.column..<link.column + link.width] where !cell.text.isEmpty {
            if cell.style != style {
                style = cell.style
                reel_link_style(Int32(cell.style.attributes.rawValue), colors ? Int16(cell.style.color.rawValue) : 0)
            }
            // What `put` gave curses for the cell.
            reel_link_write(String(String.UnicodeScalarView(cell.text.unicodeScalars.prefix(4))))
        }
        reel_link_write("\u{1B}]8;;\u{1B}\\")
        reel_link_end()
    }

    private func put(_ cell: ScreenBuffer.Cell, row: Int, column: Int) {
        var text = cell.text.unicodeScalars.prefix(4).map { wchar_t(bitPattern: $0.value) }
        text.append(0)
        let pair = colors ? Int16(cell.style.color.rawValue) : 0
        _ = reel_curses_cell(Int32(row), Int32(column), text, Int32(cell.style.attributes.rawValue), pair)
    }
}
