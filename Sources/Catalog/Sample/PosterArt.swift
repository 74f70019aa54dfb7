public import Pictures

/// Poster art for the sample catalog, whose titles have no TMDb images of their own (those are not
/// ours to ship): the title in large capitals on a colour field with a simple shape, the year
/// beneath, and a "REEL SAMPLE" band, so no one takes it for a real poster. The same title always
/// makes the same picture (its colour and shape come from an FNV-1a hash of the title, never from
/// Swift's per-process seeded `Hasher`), so the fake server's images have stable ETags and tests
/// can compare bytes.
///
/// ```swift
/// let poster = PosterArt.picture(title: "Fight Club", subtitle: "1999", kind: .poster, width: 342, height: 513)
/// ```
public enum PosterArt {
    public enum Kind: Sendable, Hashable {
        /// A title's poster (2:3): title and year.
        case poster
        /// A title's backdrop (16:9): title and year, across.
        case backdrop
        /// A person's profile photo (2:3): their initials large, the subtitle (their name) beneath.
        case profile
    }

    /// The picture for `title` at `width` × `height` pixels (each at least 1).
    public static func picture(title: String, subtitle: String?, kind: Kind, width: Int, height: Int) -> Picture {
        let width = max(1, width), height = max(1, height)
        let seed = seed(of: title)
        let palette = Palette(seed: seed)
        var canvas = ArtCanvas(width: width, height: height, background: palette.field)
        drawShape(Int(truncatingIfNeeded: (seed >> 32) % 4), on: &canvas, palette)
        let band = drawSampleBand(on: &canvas)
        let margin = max(1, (kind == .backdrop ? width / 16 : width / 14))
        let region = (top: height / 12, bottom: band.top - height / 24)
        let big: [Unicode.Scalar] = kind == .profile ? initials(of: title) : BitmapFont.fold(title)
        let small = (kind == .profile ? subtitle ?? title : subtitle).map(BitmapFont.fold) ?? []
        let available = width - 2 * margin
        // Letters at most an eighth of the picture high (a quarter for a profile's two initials).
        let maxScale = max(1, kind == .profile ? height / 28 : height / 56)
        let smallMaxScale = max(1, kind == .profile ? height / 110 : maxScale / 2)
        let smallReserve = small.isEmpty ? 0 : ArtCanvas.lineAdvance * smallMaxScale * (kind == .profile ? 3 : 1)
        guard let title = TextBlock.fit(big, width: available, height: region.bottom - region.top - smallReserve, maxScale: maxScale) else { return canvas.picture }
        let smallScale = max(1, min(smallMaxScale, kind == .profile ? smallMaxScale : title.scale * 2 / 3))
        let under = TextBlock.fit(small, width: available, height: smallReserve, maxScale: smallScale)
        let gap = under == nil ? 0 : ArtCanvas.lineAdvance * max(1, title.scale / 2)
        let total = title.height + gap + (under?.height ?? 0)
        var y = region.top + max(0, (region.bottom - region.top - total) / 2)
        title.draw(on: &canvas, top: y)
        y += title.height + gap
        under?.draw(on: &canvas, top: y)
        return canvas.picture
    }

    /// The hue (degrees, 0 ..< 360) of the colour field behind `title`.
    static func hue(of title: String) -> Double { Palette(seed: seed(of: title)).hue }

    /// 64-bit FNV-1a of the title's UTF-8.
    static func seed(of title: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in title.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        // FNV's low bits mix poorly for short texts; fold the high half in.
        return hash ^ (hash >> 29)
    }

    /// A person's initials: the first drawable letter of the first and of the last word.
    static func initials(of name: String) -> [Unicode.Scalar] {
        let words = BitmapFont.fold(name).split(separator: " ").map { word in
            word.first { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        }.compactMap { $0 }
        guard let first = words.first else { return ["?"] }
        guard words.count > 1, let last = words.last else { return [first] }
        return [first, last]
    }

    /// The colours of one title's art: the field and a darker and a lighter shade of the same hue
    /// (so the picture's mean colour keeps the title's hue), white text on a black shadow.
    struct Palette {
        let hue: Double
        let field: RGB
        let dark: RGB
        let light: RGB
        static let text = RGB(255, 255, 255)
        static let shadow = RGB(0, 0, 0)
        static let band = RGB(20, 20, 20)

        init(seed: UInt64) {
            hue = Double(seed % 360)
            let saturation = 0.45 + Double((seed >> 12) % 30) / 100
            let value = 0.50 + Double((seed >> 20) % 20) / 100
            field = Self.colour(hue, saturation, value)
            dark = Self.colour(hue, saturation, value * 0.62)
            light = Self.colour(hue, saturation * 0.6, min(1, value * 1.35))
        }

        /// HSV (hue in degrees, saturation and value 0 … 1) as 8-bit RGB.
        static func colour(_ hue: Double, _ saturation: Double, _ value: Double) -> RGB {
            let sector = hue / 60
            let chroma = value * saturation
            let x = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
            let (r, g, b): (Double, Double, Double)
            switch Int(sector) {
            case 0: (r, g, b) = (chroma, x, 0)
            case 1: (r, g, b) = (x, chroma, 0)
            case 2: (r, g, b) = (0, chroma, x)
            case 3: (r, g, b) = (0, x, chroma)
            case 4: (r, g, b) = (x, 0, chroma)
            default: (r, g, b) = (chroma, 0, x)
            }
            let m = value - chroma
            func byte(_ channel: Double) -> UInt8 { UInt8(max(0, min(255, ((channel + m) * 255).rounded()))) }
            return RGB(byte(r), byte(g), byte(b))
        }
    }

    /// One of four shapes behind the text: the lower part in the dark shade, a frame in the
    /// light shade, a diagonal band in the dark shade, or a disc in the light shade.
    private static func drawShape(_ shape: Int, on canvas: inout ArtCanvas, _ palette: Palette) {
        let (w, h) = (canvas.width, canvas.height)
        switch shape {
        case 0:
            let top = h * 3 / 5
            canvas.rectangle(x: 0, y: top, width: w, height: h - top, palette.dark)
            canvas.rectangle(x: 0, y: top, width: w, height: max(1, h / 120), palette.light)
        case 1:
            let inset = max(1, w / 28), thickness = max(1, w / 60)
            canvas.rectangle(x: inset, y: inset, width: w - 2 * inset, height: thickness, palette.light)
            canvas.rectangle(x: inset, y: h - inset - thickness, width: w - 2 * inset, height: thickness, palette.light)
            canvas.rectangle(x: inset, y: inset, width: thickness, height: h - 2 * inset, palette.light)
            canvas.rectangle(x: w - inset - thickness, y: inset, width: thickness, height: h - 2 * inset, palette.light)
        case 2:
            let bandWidth = max(1, w / 3)
            for y in 0..<h {
                let centre = (h - y) * (w + bandWidth) / h - bandWidth / 2
                canvas.span(y: y, x: centre - bandWidth / 2, count: bandWidth, palette.dark)
            }
        default:
            let radius = Double(min(w, h)) * 0.34
            let (cx, cy) = (Double(w) / 2, Double(h) * 0.42)
            let first = max(0, Int((cy - radius).rounded(.down))), last = min(h - 1, Int((cy + radius).rounded(.up)))
            guard first <= last else { return }
            for y in first...last {
                let dy = Double(y) + 0.5 - cy
                guard abs(dy) < radius else { continue }
                let half = (radius * radius - dy * dy).squareRoot()
                let left = Int((cx - half).rounded())
                canvas.span(y: y, x: left, count: Int((cx + half).rounded()) - left, palette.light)
            }
        }
    }

    /// The black "REEL SAMPLE" band near the bottom ("SAMPLE" where that is too wide, the band
    /// alone where even that is); returns where it begins.
    private static func drawSampleBand(on canvas: inout ArtCanvas) -> (top: Int, height: Int) {
        let (w, h) = (canvas.width, canvas.height)
        let height = max(min(h, 9), h / 11)
        let top = h - height - h / 20
        canvas.rectangle(x: 0, y: top, width: w, height: height, Palette.band)
        let margin = max(1, w / 14)
        for label in ["REEL SAMPLE", "SAMPLE"] {
            let scalars = Array(label.unicodeScalars)
            let scale = min((height * 3 / 5) / BitmapFont.glyphHeight, (w - 2 * margin) / ArtCanvas.textWidth(scalars.count, scale: 1))
            guard scale >= 1 else { continue }
            let x = (w - ArtCanvas.textWidth(scalars.count, scale: scale)) / 2
            let y = top + (height - BitmapFont.glyphHeight * scale) / 2
            canvas.text(scalars, x: x, y: y, scale: scale, Palette.text)
            break
        }
        return (top, height)
    }
}
