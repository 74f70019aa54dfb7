import CZlib
import Foundation
import Processes
import Pictures
import ReelTestSupport
import Testing

@testable import TerminalGraphics

/// Each output decoded back and compared with the source picture: kitty's payload from base64,
/// sixel through `sixel2png`, symbols as tmux shows them (`capture-pane -e`).
@Suite struct PictureRendererTests {
    static let esc: UInt8 = 0x1B
    static let cell = CellSize(width: 10, height: 20)!

    static func capabilities(_ mode: GraphicsMode, colours: ColourDepth = .truecolor, tmux: TmuxPassthrough? = nil) -> TerminalCapabilities {
        TerminalCapabilities(mode: mode, colours: colours, cellSize: cell, tmux: tmux, reason: "test")
    }

    /// A 342×513 poster into 30×45 cells of 10×20 pixels: 30 columns wide, and as tall as the
    /// aspect ratio asks (513/342 × 300 px = 450 px, 22 or 23 rows).
    @Test func kittyPayloadDecodesToThePicture() throws {
        let source = TestPictures.quarters()
        let rendered = try PictureRenderer(capabilities: Self.capabilities(.kitty)).render(source, columns: 30, rows: 45, imageID: 42)
        #expect(rendered.mode == .kitty)
        #expect(rendered.columns == 30)
        #expect((22...23).contains(rendered.rows))
        #expect(rendered.lines.isEmpty)
        let image = try KittyImage(rendered.bytes)
        #expect(image.keys["a"] == "T")
        #expect(image.keys["q"] == "2")
        #expect(image.keys["C"] == "1")
        #expect(image.keys["i"] == "42")
        #expect(image.keys["f"] == "24", "an opaque picture goes as RGB")
        #expect(image.keys["o"] == "z", "four flat quarters compress")
        #expect(image.keys["c"] == "30")
        #expect(image.keys["r"] == "\(rendered.rows)")
        #expect(image.picture.width == 300)
        #expect(image.picture.height == rendered.rows * 20)
        #expect(TestPictures.quartersAreInPlace(image.picture) == [])
        #expect(TestPictures.near(image.picture.meanColour, source.meanColour, tolerance: 12))
        // Without an id, none is sent.
        let anonymous = try PictureRenderer(capabilities: Self.capabilities(.kitty)).render(source, columns: 30, rows: 45)
        #expect(try KittyImage(anonymous.bytes).keys["i"] == nil)
    }

    /// A picture smaller than its box goes with its own pixels, and kitty (or iTerm2) scales it
    /// to the cells: a 342×513 poster in 40×30 cells of 10×20 (400×600 px) is sent at no more
    /// than 342×513, placed over the same cells. Sixel is shown pixel for pixel: filled out.
    @Test func kittySendsNoMorePixelsThanThePictureHas() throws {
        let source = TestPictures.quarters()
        let rendered = try PictureRenderer(capabilities: Self.capabilities(.kitty)).render(source, columns: 40, rows: 30, imageID: 1)
        let image = try KittyImage(rendered.bytes)
        #expect(image.picture.width <= 342 && image.picture.height <= 513, "\(image.picture.width)×\(image.picture.height)")
        #expect(image.picture.width >= 300 && image.keys["c"] == "\(rendered.columns)" && image.keys["r"] == "\(rendered.rows)")
        #expect(rendered.rows == 30 && rendered.columns == 40, "the box's cells, as before: \(rendered.columns)×\(rendered.rows)")
        #expect(TestPictures.quartersAreInPlace(image.picture) == [])
        #expect(PictureRenderer.drawnCell(source, width: 20, height: 30, Self.cell, .sixel) == Self.cell)
        #expect(PictureRenderer.drawnCell(source, width: 20, height: 30, Self.cell, .symbols) == Self.cell)
    }

    /// The payload's chunks: at most 4,096 base64 characters, each decoding on its own, `m=1`
    /// on all but the last; compressed only when that is smaller (noise is not), RGBA only when
    /// some pixel is not opaque; the pixels come back as they were sent.
    @Test func kittyPixelsGoCompressedInWholeChunksAndComeBackAsSent() throws {
        let renderer = PictureRenderer(capabilities: Self.capabilities(.kitty))
        var generator = SplitMix64(seed: 7)
        let noise = Picture(width: 120, height: 180, rgba: (0..<(120 * 180 * 4)).map { $0 % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: generator.next()) })
        // 12×9 cells of 10×20 are 120×180 pixels: the noise goes pixel for pixel.
        let noisy = try KittyImage(try renderer.render(noise, columns: 12, rows: 9).bytes)
        #expect(noisy.keys["o"] == nil && noisy.keys["f"] == "24")
        #expect(noisy.picture == noise, "the pixels changed on the way")
        #expect(noisy.sequences.count == (120 * 180 * 3 * 4 / 3 + 4_095) / 4_096)
        for (index, sequence) in noisy.sequences.enumerated() {
            let payload = sequence.split(separator: ";", maxSplits: 1)[1]
            #expect(payload.count <= 4_096 && Data(base64Encoded: String(payload)) != nil, "chunk \(index)")
            #expect(sequence.contains(index == noisy.sequences.count - 1 ? "m=0;" : "m=1;"), "chunk \(index)")
            #expect(index == noisy.sequences.count - 1 || payload.count == 4_096, "chunk \(index)")
        }
        // Half transparent: RGBA, and the transparent half stays so.
        var rgba = TestPictures.quarters(width: 120, height: 180).rgba
        for offset in stride(from: 3, to: rgba.count / 2, by: 4) { rgba[offset] = 0 }
        let seeThrough = try KittyImage(try renderer.render(Picture(width: 120, height: 180, rgba: rgba), columns: 12, rows: 9).bytes)
        #expect(seeThrough.keys["f"] == "32" && seeThrough.keys["o"] == "z")
        #expect(seeThrough.picture.rgba[3] == 0 && seeThrough.picture.rgba.last == 255)
        // Flat colours: a poster of four quarters is a few KB, not 700.
        let flat = try renderer.render(TestPictures.quarters(), columns: 30, rows: 45).bytes
        #expect(flat.count < 20_000, "\(flat.count) bytes")
    }

    /// Scaling down takes the mean of the pixels each one covers, alpha-weighted: a checkerboard
    /// of black and white is grey, and a transparent pixel lends no colour.
    @Test func kittyScalesDownByTheMeanOfWhatEachPixelCovers() {
        let board = Picture(width: 4, height: 4, rgba: (0..<16).flatMap { index -> [UInt8] in
            let white = (index % 4 + index / 4) % 2 == 0
            return white ? [255, 255, 255, 255] : [0, 0, 0, 255]
        })
        let grey = KittyTransmission.scaled(board, width: 2, height: 2)
        #expect(grey.rgba == [UInt8](repeating: 0, count: 16).enumerated().map { $0.offset % 4 == 3 ? 255 : 128 })
        let halfClear = Picture(width: 2, height: 1, rgba: [255, 0, 0, 255, 0, 255, 0, 0])
        #expect(KittyTransmission.scaled(halfClear, width: 1, height: 1).rgba == [255, 0, 0, 128])
        #expect(KittyTransmission.scaled(board, width: 4, height: 4) == board)
    }

    @Test func kittyThroughTmuxWrapsEachSequenceOnItsOwn() throws {
        let source = TestPictures.quarters()
        let plain = try PictureRenderer(capabilities: Self.capabilities(.kitty)).render(source, columns: 30, rows: 45, imageID: 7)
        let wrapped = try PictureRenderer(capabilities: Self.capabilities(.kitty, tmux: TmuxPassthrough(passthrough: true)))
            .render(source, columns: 30, rows: 45, imageID: 7)
        let pieces = try Passthrough.unwrap(wrapped.bytes)
        // One passthrough per kitty sequence (the header, the chunks, the end), each small.
        #expect(pieces.count == plain.bytes.count { $0 == Self.esc } / 2)
        #expect(pieces.allSatisfy { $0.count < 5_000 })
        #expect(Array(pieces.joined()) == plain.bytes)
        // tmux without passthrough: not wrapped.
        let unwrapped = try PictureRenderer(capabilities: Self.capabilities(.kitty, tmux: TmuxPassthrough(passthrough: false)))
            .render(source, columns: 30, rows: 45, imageID: 7)
        #expect(unwrapped.bytes == plain.bytes)
    }

    @Test func sixelDecodedBySixel2pngIsThePicture() throws {
        let source = TestPictures.quarters()
        let rendered = try PictureRenderer(capabilities: Self.capabilities(.sixel)).render(source, columns: 30, rows: 45)
        #expect(rendered.mode == .sixel)
        #expect(rendered.bytes.starts(with: [Self.esc, UInt8(ascii: "P")]))
        #expect(rendered.bytes.suffix(2).elementsEqual([Self.esc, UInt8(ascii: "\\")]))
        let directory = temporaryDirectory()
        try Data(rendered.bytes).write(to: URL(fileURLWithPath: directory + "/in.six"))
        let status = try Self.run("/usr/bin/sixel2png", ["-i", directory + "/in.six", "-o", directory + "/out.png"])
        #expect(status == 0)
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/out.png")))
        let decoded = try PictureDecoder().decode(png)
        // About columns × 10 by rows × 20 pixels (sixel bands are 6 pixels tall).
        #expect(decoded.width == rendered.columns * 10)
        #expect(abs(decoded.height - rendered.rows * 20) < 20)
        #expect(TestPictures.quartersAreInPlace(decoded) == [])
        #expect(TestPictures.near(decoded.meanColour, source.meanColour, tolerance: 15))
    }

    @Test func itermIsOneInlineImageOfTheBoxSize() throws {
        let rendered = try PictureRenderer(capabilities: Self.capabilities(.iterm)).render(TestPictures.quarters(), columns: 30, rows: 45)
        let text = String(decoding: rendered.bytes, as: UTF8.self)
        let header = "\u{1B}]1337;File=inline=1;width=\(rendered.columns);height=\(rendered.rows);preserveAspectRatio=0:"
        #expect(text.hasPrefix(header))
        #expect(text.hasSuffix("\u{07}"))
        let payload = Data(base64Encoded: String(text.dropFirst(header.count).dropLast()))
        // A TIFF (little-endian) of the pixels.
        #expect(payload.map { Array($0.prefix(4)) } == [0x49, 0x49, 0x2A, 0x00])
    }

    /// Symbols shown by tmux in a pane, read back with their colours.
    @Test(arguments: [ColourDepth.truecolor, .indexed256])
    func symbolsInTmuxLookLikeThePicture(colours: ColourDepth) async throws {
        let source = TestPictures.quarters()
        let rendered = try PictureRenderer(capabilities: Self.capabilities(.symbols, colours: colours)).render(source, columns: 24, rows: 16)
        // 24 columns of 10 px are 240 px: 360 px tall, 18 rows; too tall, so 16 rows (320 px)
        // and 320 × 342/513 = 213 px, 21 columns.
        #expect(rendered.rows == 16)
        #expect(rendered.columns == 21)
        let file = temporaryDirectory() + "/picture"
        try Data(rendered.bytes).write(to: URL(fileURLWithPath: file))
        let tmux = try await TerminalSession(shell: "cat \(file); sleep 60", width: 40, height: 24)
        let screen = ScreenCells(
            capture: try await tmux.waitForColours(seconds: 10, trailingSpaces: true) { ScreenCells(capture: $0).colouredBox?.rows == rendered.rows })
        let box = try #require(screen.colouredBox)
        #expect(box.firstColumn == 0 && box.firstRow == 0)
        #expect(box.columns == rendered.columns)
        #expect(box.rows == rendered.rows)
        let tolerance = colours == .truecolor ? 30.0 : 50.0
        for (name, colour, x, y) in [
            ("top-left", TestPictures.red, 0.1..<0.4, 0.1..<0.4), ("top-right", TestPictures.blue, 0.6..<0.9, 0.1..<0.4),
            ("bottom-left", TestPictures.green, 0.1..<0.4, 0.6..<0.9), ("bottom-right", TestPictures.yellow, 0.6..<0.9, 0.6..<0.9),
        ] {
            let seen = screen.mean(columns: box.columns, rows: box.rows, x: x, y: y)
            #expect(TestPictures.near(seen, TestPictures.tuple(colour), tolerance: tolerance), "\(name): \(seen)")
        }
        #expect(TestPictures.near(screen.mean(columns: box.columns, rows: box.rows), source.meanColour, tolerance: tolerance))
    }

    @Test func symbolLinesStandAloneAndTheBytesJoinThemInPlace() throws {
        let rendered = try PictureRenderer(capabilities: Self.capabilities(.symbols)).render(TestPictures.quarters(), columns: 12, rows: 8)
        #expect(rendered.lines.count == rendered.rows)
        let reset = Array("\u{1B}[0m".utf8)
        for line in rendered.lines {
            #expect(line.suffix(reset.count).elementsEqual(reset))
            #expect(!line.contains(0x0A) && !line.contains(0x0D))
            // Each line sets its own colours before its first character.
            let visible = Self.withoutSequences(line)
            #expect(visible.unicodeScalars.count == rendered.columns)
        }
        let between = Array("\u{1B}[\(rendered.columns)D\u{1B}[B".utf8)
        #expect(rendered.bytes == Array(rendered.lines.joined(separator: between)))
    }

    /// Only fixed escape sequences and picture characters: nothing a picture could smuggle in.
    @Test(arguments: [ColourDepth.truecolor, .indexed256, .indexed16])
    func symbolsAreOnlyColourSequencesAndBlockCharacters(colours: ColourDepth) throws {
        let rendered = try PictureRenderer(capabilities: Self.capabilities(.symbols, colours: colours)).render(TestPictures.quarters(), columns: 20, rows: 10)
        let text = String(decoding: rendered.bytes, as: UTF8.self)
        let sequences = try Regex(#"\x1B\[([0-9;]*)([mDB])"#)
        for match in text.matches(of: sequences) {
            let parameters = match.output[1].substring.map(String.init) ?? ""
            let final = match.output[2].substring.map(String.init) ?? ""
            guard final == "m" else { continue }
            let numbers = parameters.split(separator: ";").compactMap { Int($0) }
            switch colours {
            case .truecolor: #expect(!parameters.contains("38;5;") && !parameters.contains("48;5;"))
            case .indexed256: #expect(!parameters.contains("38;2;") && !parameters.contains("48;2;"))
            case .indexed16: #expect(numbers.allSatisfy { [0, 7].contains($0) || (30...49).contains($0) || (90...107).contains($0) }, "\(parameters)")
            }
        }
        for scalar in Self.withoutSequences(rendered.bytes).unicodeScalars {
            #expect(scalar == " " || (0x2500...0x259F).contains(scalar.value), "\(scalar.value)")
        }
    }

    @Test func noneDrawsNothingAndAnEmptyBoxIsAMistake() throws {
        let none = try PictureRenderer(capabilities: .noPictures(reason: "test")).render(TestPictures.quarters(), columns: 30, rows: 45)
        #expect(none == .empty)
        #expect(throws: RenderError.box(columns: 0, rows: 10)) {
            try PictureRenderer(capabilities: Self.capabilities(.symbols)).render(TestPictures.quarters(), columns: 0, rows: 10)
        }
        // A one-pixel picture and a very wide one still fit their box.
        let dot = try PictureRenderer(capabilities: Self.capabilities(.symbols)).render(Picture(width: 1, height: 1, filledWith: RGB(1, 2, 3)), columns: 4, rows: 4)
        #expect(dot.columns <= 4 && dot.rows <= 4 && dot.rows >= 1)
        let band = try PictureRenderer(capabilities: Self.capabilities(.sixel)).render(Picture(width: 3000, height: 2, filledWith: RGB(1, 2, 3)), columns: 30, rows: 45)
        #expect(band.columns == 30 && band.rows == 1)
    }

    /// The text of `bytes` without its CSI sequences.
    static func withoutSequences(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacing(try! Regex(#"\x1B\[[0-9;]*[A-Za-z]"#), with: "")
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        try ChildProcess.spawn([executable] + arguments).wait().status
    }
}

/// A kitty graphics transmission read back: the first sequence's keys and the picture its
/// chunks carry (base64 of RGBA pixels, `f=32`).
struct KittyImage {
    let keys: [String: String]
    let picture: Picture
    /// Each `ESC _G …` without its `ESC \`.
    let sequences: [String]

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(_ bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        var keys: [String: String] = [:]
        var pixels: [UInt8] = []
        var first = true
        for sequence in text.split(separator: "\u{1B}\\") {
            guard sequence.hasPrefix("\u{1B}_G") else { throw Failure(description: "not a kitty sequence: \(sequence.prefix(20).debugDescription)") }
            let body = sequence.dropFirst(3)
            let control = body.prefix { $0 != ";" }
            if first {
                for pair in control.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { keys[String(parts[0])] = String(parts[1]) }
                }
                first = false
            }
            // Each chunk is base64 of its own (padded), as kitty reads them.
            let chunk = body.dropFirst(control.count + 1)
            guard let data = Data(base64Encoded: String(chunk)) else { throw Failure(description: "a chunk is not base64") }
            pixels += data
        }
        guard let width = Int(keys["s"] ?? ""), let height = Int(keys["v"] ?? ""), width > 0, height > 0,
            let bytesPerPixel = ["24": 3, "32": 4][keys["f"] ?? ""]
        else { throw Failure(description: "no size, or a format other than f=24 or f=32: \(keys)") }
        let size = width * height * bytesPerPixel
        if keys["o"] == "z" {
            var inflated = [UInt8](repeating: 0, count: size + 1)
            var length = uLong(inflated.count)
            let status = uncompress(&inflated, &length, pixels, uLong(pixels.count))
            guard status == Z_OK else { throw Failure(description: "o=z, but the payload is not a zlib stream (\(status))") }
            pixels = Array(inflated.prefix(Int(length)))
        } else if keys["o"] != nil {
            throw Failure(description: "an unknown compression: o=\(keys["o"] ?? "")")
        }
        guard pixels.count == size else { throw Failure(description: "the payload is \(pixels.count) bytes, not s×v×\(bytesPerPixel) = \(size)") }
        if bytesPerPixel == 3 {
            var rgba = [UInt8](repeating: 255, count: width * height * 4)
            for pixel in 0..<(width * height) {
                for channel in 0..<3 { rgba[pixel * 4 + channel] = pixels[pixel * 3 + channel] }
            }
            pixels = rgba
        }
        self.keys = keys
        self.sequences = text.split(separator: "\u{1B}\\").map(String.init)
        self.picture = Picture(width: width, height: height, rgba: pixels)
    }
}

/// tmux passthrough taken apart: the payload of each `ESC P tmux; … ESC \` with ESCs undoubled.
enum Passthrough {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func unwrap(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let start = Array("\u{1B}Ptmux;".utf8)
        var pieces: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index...].starts(with: start) else { throw Failure(description: "bytes outside a passthrough at \(index)") }
            index += start.count
            var piece: [UInt8] = []
            while true {
                guard index + 1 < bytes.count, bytes[index] != 0x1B || bytes[index + 1] == 0x1B || bytes[index + 1] == UInt8(ascii: "\\") else {
                    throw Failure(description: "a lone ESC inside a passthrough at \(index)")
                }
                if bytes[index] == 0x1B && bytes[index + 1] == 0x1B {
                    piece.append(0x1B)
                    index += 2
                } else if bytes[index] == 0x1B {
                    index += 2
                    break
                } else {
                    piece.append(bytes[index])
                    index += 1
                }
            }
            pieces.append(piece)
        }
        return pieces
    }
}

