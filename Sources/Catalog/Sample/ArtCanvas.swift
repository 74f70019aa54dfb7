import Pictures

/// Pixels to paint poster art on: rectangles, row spans and text in `BitmapFont`, clipped to the
/// canvas. Every shape is a set of row spans filled with one 32-bit pixel value at a time (a
/// memset-like fill the standard library does fast even in a debug build), never a loop over
/// single pixels, so a poster takes about a millisecond.
struct ArtCanvas {
    let width: Int
    let height: Int
    /// RGBA, one `UInt32` a pixel, in memory order red, green, blue, alpha.
    private var pixels: [UInt32]

    init(width: Int, height: Int, background: RGB) {
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: Self.pixel(background), count: width * height)
    }

    /// The pixel value whose bytes in memory are red, green, blue, 255.
    static func pixel(_ colour: RGB) -> UInt32 {
        let value = UInt32(colour.red) | UInt32(colour.green) << 8 | UInt32(colour.blue) << 16 | 0xFF00_0000
        return value.littleEndian
    }

    /// Fills `count` pixels of row `y` from `x` on (clipped).
    mutating func span(y: Int, x: Int, count: Int, _ colour: RGB) {
        guard y >= 0, y < height else { return }
        let start = max(0, x), end = min(width, x + count)
        guard start < end else { return }
        let value = Self.pixel(colour)
        let offset = y * width + start
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            (base + offset).update(repeating: value, count: end - start)
        }
    }

    mutating func rectangle(x: Int, y: Int, width w: Int, height h: Int, _ colour: RGB) {
        let top = max(0, y), bottom = min(height, y + h)
        guard w > 0, top < bottom else { return }
        for row in top..<bottom { span(y: row, x: x, count: w, colour) }
    }

    /// Draws folded text (`BitmapFont.fold`) with its top left corner at (x, y), each font pixel a
    /// `scale` × `scale` square; runs of lit pixels in a glyph row are one rectangle.
    mutating func text(_ scalars: [Unicode.Scalar], x: Int, y: Int, scale: Int, _ colour: RGB) {
        var left = x
        for scalar in scalars {
            let glyph = BitmapFont.glyph(scalar)
            for (row, bits) in glyph.enumerated() where bits != 0 {
                var column = 0
                while column < BitmapFont.glyphWidth {
                    let bit = UInt8(1) << UInt8(BitmapFont.glyphWidth - 1 - column)
                    guard bits & bit != 0 else { column += 1; continue }
                    var run = 1
                    while column + run < BitmapFont.glyphWidth, bits & (UInt8(1) << UInt8(BitmapFont.glyphWidth - 1 - column - run)) != 0 { run += 1 }
                    rectangle(x: left + column * scale, y: y + row * scale, width: run * scale, height: scale, colour)
                    column += run
                }
            }
            left += Self.advance * scale
        }
    }

    /// Columns from one glyph's left edge to the next (five of glyph, one of space).
    static let advance = BitmapFont.glyphWidth + 1
    /// Rows from one line's top to the next (seven of glyph, two of space).
    static let lineAdvance = BitmapFont.glyphHeight + 2

    /// The width in pixels of `count` characters at `scale` (no trailing space).
    static func textWidth(_ count: Int, scale: Int) -> Int { count > 0 ? (count * advance - 1) * scale : 0 }

    var picture: Picture {
        let bytes = pixels.withUnsafeBytes { Array($0) }
        return Picture(width: width, height: height, rgba: bytes)
    }
}
