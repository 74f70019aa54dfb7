import CChafa
public import Pictures

/// Draws a `Picture` in a box of cells the way the terminal can best show it: kitty graphics
/// (`KittyTransmission`: the pixels compressed), and through libchafa iTerm2 inline images, sixel,
/// or Unicode symbols (blocks, half and quarter blocks, box drawing: the `chafa` command's default
/// set) in truecolor, 256 or 16 colours.
///
/// The output holds only fixed escape sequences, numbers and the picture's data (base64, sixel,
/// coloured block characters): no text from outside reaches the terminal through it.
public struct PictureRenderer: Sendable {
    public let capabilities: TerminalCapabilities

    public init(capabilities: TerminalCapabilities) {
        self.capabilities = capabilities
    }

    /// The bytes that draw `picture` as large as fits in `columns`×`rows` cells, its aspect
    /// ratio kept with the terminal's cell size (`CellSize.assumed` when unknown), top-left at
    /// the cursor.
    ///
    /// Where the cursor is after `bytes`:
    /// - symbols: at the end of the last row, just right of the picture (rows are joined by
    ///   "back `columns`, down one", so the picture can start at any column; the rows below the
    ///   cursor must exist, as cursor-down does not scroll). Keep a column free on the right: a
    ///   row that ends at the terminal's last column leaves the cursor there, one short.
    /// - kitty: where it was (`C=1`); the image is transmitted and placed in one go, quietly
    ///   (`q=2`: the terminal sends no answer into the input), with `i=imageID` when given so
    ///   `TerminalSequences.kittyDelete(imageID:)` can remove it.
    /// - iTerm2 and sixel: the terminal moves it, below or beside the picture's last row
    ///   depending on the terminal; save and restore the cursor around the bytes.
    ///
    /// Inside tmux with `allow-passthrough`, kitty and iTerm2 output is wrapped in passthrough,
    /// each sequence on its own. Sixel never is: in tmux it is chosen only when tmux says it
    /// draws sixel itself. `GraphicsMode.none` renders `RenderedPicture.empty`.
    public func render(_ picture: Picture, columns: Int, rows: Int, imageID: UInt32? = nil) throws(RenderError) -> RenderedPicture {
        guard (1...1_000).contains(columns), (1...1_000).contains(rows) else { throw .box(columns: columns, rows: rows) }
        let mode = capabilities.mode
        guard mode != .none else { return .empty }
        let cell = capabilities.cellSize ?? .assumed
        var width = Int32(columns), height = Int32(rows)
        // zoom: a small picture fills the box too; stretch: no, the aspect ratio is kept.
        chafa_calc_canvas_geometry(
            Int32(picture.width), Int32(picture.height), &width, &height, Float(cell.width) / Float(cell.height), 1, 0)
        width = max(1, min(width, Int32(columns)))
        height = max(1, min(height, Int32(rows)))
        let drawn = Self.drawnCell(picture, width: width, height: height, cell, mode)
        let bytes = mode == .kitty
            ? KittyTransmission.encode(
                picture, pixelWidth: Int(width) * drawn.width, pixelHeight: Int(height) * drawn.height, columns: Int(width), rows: Int(height),
                imageID: imageID)
            : try draw(picture, width: width, height: height, cell: drawn)
        switch mode {
        case .symbols:
            let lines = Self.lines(bytes)
            let between = Array("\u{1B}[\(width)D\u{1B}[B".utf8)
            return RenderedPicture(
                mode: mode, bytes: Array(lines.joined(separator: between)), columns: Int(width), rows: lines.count, lines: lines)
        case .kitty, .iterm:
            let wrapped = capabilities.tmux?.passthrough == true ? TerminalSequences.passthroughEachSequence(bytes) : bytes
            return RenderedPicture(mode: mode, bytes: wrapped, columns: Int(width), rows: Int(height))
        case .sixel, .none:
            return RenderedPicture(mode: mode, bytes: bytes, columns: Int(width), rows: Int(height))
        }
    }

    /// The cell size the picture is drawn at. Kitty and iTerm2 scale an image to the cells it is
    /// placed in, so it is sent with no more pixels than it has: a 342×513 poster in a box of
    /// 400×600 pixels went as 960 KB of pixels upscaled, where 700 KB carry all it holds. Sixel
    /// is shown pixel for pixel, and symbols are cells: the terminal's cell size for them.
    static func drawnCell(_ picture: Picture, width: Int32, height: Int32, _ cell: CellSize, _ mode: GraphicsMode) -> CellSize {
        guard mode == .kitty || mode == .iterm else { return cell }
        let scale = min(1, Double(picture.width) / Double(Int(width) * cell.width), Double(picture.height) / Double(Int(height) * cell.height))
        guard scale < 1 else { return cell }
        return CellSize(width: max(1, Int(Double(cell.width) * scale)), height: max(1, Int(Double(cell.height) * scale))) ?? cell
    }

    private func draw(_ picture: Picture, width: Int32, height: Int32, cell: CellSize) throws(RenderError) -> [UInt8] {
        guard let config = chafa_canvas_config_new() else { throw .renderer("no canvas configuration") }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, width, height)
        chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
        switch capabilities.mode {
        case .iterm: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_ITERM2)
        case .sixel: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
        case .symbols, .none, .kitty: chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        }
        var symbols: OpaquePointer?
        defer { if let symbols { chafa_symbol_map_unref(symbols) } }
        if capabilities.mode == .symbols {
            chafa_canvas_config_set_canvas_mode(config, Self.canvasMode(capabilities.colours))
            // The `chafa` command's default: block+border+space-wide-inverted.
            symbols = chafa_symbol_map_new()
            chafa_symbol_map_add_by_tags(
                symbols, ChafaSymbolTags(CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue))
            chafa_symbol_map_remove_by_tags(symbols, ChafaSymbolTags(CHAFA_SYMBOL_TAG_WIDE.rawValue | CHAFA_SYMBOL_TAG_INVERTED.rawValue))
            chafa_canvas_config_set_symbol_map(config, symbols)
            chafa_canvas_config_set_work_factor(config, Self.symbolWork)
            // Colours are set again only where they change; no cursor skips and no REP, which
            // would leave a line's cells to what was on the screen, or need a newer terminal.
            chafa_canvas_config_set_optimizations(config, CHAFA_OPTIMIZATION_REUSE_ATTRIBUTES)
        } else {
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        }
        guard let canvas = chafa_canvas_new(config) else { throw .renderer("no canvas") }
        defer { chafa_canvas_unref(canvas) }
        picture.rgba.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress, Int32(picture.width), Int32(picture.height),
                Int32(picture.width * 4))
        }
        // libchafa's built-in sequences: xterm's, fixed; nothing read from the environment.
        guard let terminal = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else { throw .renderer("no terminal sequences") }
        defer { chafa_term_info_unref(terminal) }
        guard let printed = chafa_canvas_print(canvas, terminal) else { throw .renderer("nothing printed") }
        defer { reel_g_string_free(printed) }
        guard let text = printed.pointee.str else { return [] }
        return Array(UnsafeRawBufferPointer(start: text, count: Int(printed.pointee.len)))
    }

    /// How hard libchafa works at choosing symbols (0…1; the `chafa` command's default is 0.5).
    /// Measured on a 342×513 poster in 30×22 cells: 0.25–0.7 cost about the same (5–6 ms), and
    /// from 0.75 libchafa searches exhaustively and takes three times as long (18 ms, over the
    /// 15 ms budget): 0.7 is the most work that is cheap.
    static let symbolWork: Float = 0.7

    private static func canvasMode(_ colours: ColourDepth) -> ChafaCanvasMode {
        switch colours {
        case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed256: CHAFA_CANVAS_MODE_INDEXED_256
        case .indexed16: CHAFA_CANVAS_MODE_INDEXED_16
        }
    }

    /// Symbols' rows (libchafa separates them with newlines), each ending with an SGR reset.
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        let reset = Array("\u{1B}[0m".utf8)
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map { line in
            let line = Array(line)
            return line.count >= reset.count && line.suffix(reset.count).elementsEqual(reset) ? line : line + reset
        }
    }
}
