@testable import Catalog
import Foundation
import Pictures
import Testing

/// The sample catalog's generated art: the same title always makes the same picture, another
/// title another one, at exactly the size asked for, painted in the title's hue, with the title
/// and the "REEL SAMPLE" band drawn on it. (How fast, beside filling a picture of that size:
/// `reel-bench posters`, its last row; it was a timed test here.)
@Suite struct PosterArtTests {
    static func poster(_ title: String, _ subtitle: String? = "1999", width: Int = 342, height: Int = 513) -> Picture {
        PosterArt.picture(title: title, subtitle: subtitle, kind: .poster, width: width, height: height)
    }

    /// The hue (degrees) of a colour, nil for a grey.
    static func hue(_ c: (red: Double, green: Double, blue: Double)) -> Double? {
        let high = max(c.red, c.green, c.blue), low = min(c.red, c.green, c.blue)
        guard high - low > 0.5 else { return nil }
        let chroma = high - low
        var hue: Double
        if high == c.red {
            hue = 60 * ((c.green - c.blue) / chroma)
        } else if high == c.green {
            hue = 60 * ((c.blue - c.red) / chroma + 2)
        } else {
            hue = 60 * ((c.red - c.green) / chroma + 4)
        }
        if hue < 0 { hue += 360 }
        return hue
    }

    static func hueDistance(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    /// Pixels at least this close to white: the title's letters (the field never is).
    static func whitePixels(_ p: Picture) -> Int {
        stride(from: 0, to: p.rgba.count, by: 4).filter { p.rgba[$0] > 240 && p.rgba[$0 + 1] > 240 && p.rgba[$0 + 2] > 240 }.count
    }

    @Test func theSameTitleMakesTheSameBytes() throws {
        // Compared as Bools: a failure would otherwise print every byte.
        let samePixels = Self.poster("Fight Club") == Self.poster("Fight Club")
        #expect(samePixels)
        let first = try PictureEncoder.jpeg(Self.poster("Fight Club"), quality: 85)
        let second = try PictureEncoder.jpeg(Self.poster("Fight Club"), quality: 85)
        let sameBytes = first == second
        #expect(sameBytes)
        // FNV-1a of "Fight Club" (0xf6df2e83d3c4642b), its high half folded in: the same in every process.
        #expect(PosterArt.seed(of: "Fight Club") == 0xf6df_2e84_653d_1035)
    }

    @Test func anotherTitleMakesAnotherPicture() {
        let otherTitle = Self.poster("Fight Club") != Self.poster("The Matrix")
        let otherYear = Self.poster("Fight Club", "1999") != Self.poster("Fight Club", "2000")
        #expect(otherTitle)
        #expect(otherYear, "the subtitle is drawn")
        // Titles spread over the colour wheel: the sample's posters take many hues, not one.
        let titles = SampleCatalog.bundled.movies.map(\.title) + SampleCatalog.bundled.series.map(\.name)
        let hues = Set(titles.map { Int(PosterArt.hue(of: $0)) / 30 })
        #expect(hues.count >= 10, "\(hues.sorted())")
    }

    @Test(arguments: [(342, 513), (92, 138), (780, 439), (1000, 1500), (45, 68), (7, 3), (3, 7), (1, 1)])
    func decodesToExactlyTheSizeAsked(width: Int, height: Int) throws {
        for kind in [PosterArt.Kind.poster, .backdrop, .profile] {
            let art = PosterArt.picture(title: "The Lord of the Rings: The Return of the King", subtitle: "2003", kind: kind, width: width, height: height)
            #expect(art.width == width && art.height == height)
            let decoded = try PictureDecoder().decode(PictureEncoder.jpeg(art, quality: 85))
            #expect(decoded.width == width && decoded.height == height, "\(kind) \(width)×\(height)")
        }
    }

    @Test func itsMeanColourHasTheTitlesHue() throws {
        let titles = ["Fight Club", "The Matrix", "Spirited Away", "Breaking Bad", "Amélie", "Parasite", "Up", ""]
        var seen = Set<Int>()
        for title in titles {
            for kind in [PosterArt.Kind.poster, .backdrop, .profile] {
                let (width, height) = kind == .backdrop ? (300, 169) : (185, 278)
                let art = PosterArt.picture(title: title, subtitle: "2001", kind: kind, width: width, height: height)
                let decoded = try PictureDecoder().decode(PictureEncoder.jpeg(art, quality: 85))
                let mean = decoded.meanColour
                // A blank or grey picture has no hue; the art's field is a clear colour.
                #expect(max(mean.red, mean.green, mean.blue) - min(mean.red, mean.green, mean.blue) > 20, "\(title): \(mean)")
                let hue = try #require(Self.hue(mean), "\(title) \(kind): \(mean)")
                #expect(Self.hueDistance(hue, PosterArt.hue(of: title)) < 8, "\(title) \(kind): \(hue) vs \(PosterArt.hue(of: title))")
            }
            seen.insert(Int(PosterArt.hue(of: title)))
        }
        #expect(seen.count == titles.count, "each of these titles has its own hue")
    }

    @Test func theTitleAndTheSampleBandAreDrawn() {
        let plain = Self.poster("", nil)
        let titled = Self.poster("Fight Club", nil)
        #expect(Self.whitePixels(titled) > Self.whitePixels(plain) + 1000, "the title's letters are white")
        #expect(Self.whitePixels(plain) > 500, "REEL SAMPLE is drawn even without a title")
        // The band: a row of near-black across the picture's lower part.
        let row = plain.height - plain.height / 20 - plain.height / 22
        let offset = row * plain.width * 4
        #expect(plain.rgba[offset] == 20 && plain.rgba[offset + 1] == 20 && plain.rgba[offset + 2] == 20)
        // A profile draws initials, big: many more white pixels than a name in small letters.
        let profile = PosterArt.picture(title: "Brad Pitt", subtitle: nil, kind: .profile, width: 185, height: 278)
        let bandOnly = PosterArt.picture(title: "", subtitle: nil, kind: .profile, width: 185, height: 278)
        #expect(Self.whitePixels(profile) > Self.whitePixels(bandOnly) + 1500)
    }

    @Test func textIsFoldedToTheFontsCapitals() {
        #expect(String(String.UnicodeScalarView(BitmapFont.fold("Amélie – Straße, Zoë & Søren…"))) == "AMELIE - STRASSE, ZOE & SOREN...")
        #expect(String(String.UnicodeScalarView(BitmapFont.fold("千と\tx\u{1B}[2J"))) == "\u{FFFD}\u{FFFD} X[2J", "no glyph: a box; tab: a space; ESC: nothing")
        #expect(BitmapFont.glyph("\u{FFFD}") == BitmapFont.box)
        #expect(BitmapFont.glyph("~") == BitmapFont.box)
        #expect(BitmapFont.glyph("A") == [0b01110, 0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001])
        #expect(BitmapFont.table.count == 0x60 - 0x20)
        #expect(BitmapFont.table.allSatisfy { $0.count == 7 && $0.allSatisfy { $0 < 32 } })
        #expect(Set(BitmapFont.table.dropFirst()).count == BitmapFont.table.count - 1, "every glyph but space is its own")
    }

    @Test func initialsAreOfTheFirstAndLastWord() {
        func initials(_ name: String) -> String { String(String.UnicodeScalarView(PosterArt.initials(of: name))) }
        #expect(initials("Brad Pitt") == "BP")
        #expect(initials("Helena Bonham Carter") == "HC")
        #expect(initials("Zoë Saldaña") == "ZS")
        #expect(initials("Madonna") == "M")
        #expect(initials("Ōshima Nagisa") == "ON")
        #expect(initials("") == "?")
        #expect(initials("宮崎駿") == "?")
    }

    @Test func titlesWrapAtWordsWhereTheyCan() throws {
        let text = BitmapFont.fold("The Shawshank Redemption")
        let block = try #require(TextBlock.fit(text, width: 294, height: 250, maxScale: 9))
        #expect(block.lines.map { String(String.UnicodeScalarView($0)) } == ["THE", "SHAWSHANK", "REDEMPTION"])
        #expect(block.scale == 4)
        // A word wider than the box at scale 1 is broken rather than lost.
        let narrow = try #require(TextBlock.fit(BitmapFont.fold("Supercalifragilistic"), width: 60, height: 100, maxScale: 3))
        #expect(narrow.scale == 2 && narrow.lines.map(\.count) == [5, 5, 5, 5])
        // Too much text for the box: the lines that fit.
        let cut = try #require(TextBlock.fit(BitmapFont.fold("one two three four five six"), width: 30, height: 20, maxScale: 1))
        #expect(cut.lines.count == 2 && cut.height <= 20)
        #expect(TextBlock.fit(text, width: 0, height: 100, maxScale: 2) == nil)
        #expect(TextBlock.wrap(text, columns: 0).count == text.count - 2, "a column a line, spaces dropped, never a hang")
    }
}
