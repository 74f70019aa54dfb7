import Pictures

/// Pictures whose renderings cannot be mistaken: four quarters of distinct colours, so a picture
/// drawn mirrored, upside down, in one colour or shifted fails the comparison.
enum TestPictures {
    static let red = RGB(220, 30, 30)
    static let blue = RGB(30, 40, 220)
    static let green = RGB(30, 200, 60)
    static let yellow = RGB(230, 210, 40)

    /// Red top-left, blue top-right, green bottom-left, yellow bottom-right.
    static func quarters(width: Int = 342, height: Int = 513) -> Picture {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let colour = y < height / 2 ? (x < width / 2 ? red : blue) : (x < width / 2 ? green : yellow)
                let offset = (y * width + x) * 4
                pixels[offset] = colour.red
                pixels[offset + 1] = colour.green
                pixels[offset + 2] = colour.blue
            }
        }
        return Picture(width: width, height: height, rgba: pixels)
    }

    /// The mean colour of a part of a picture given as fractions of its width and height
    /// (`0.1..<0.4` etc.), to check each quarter came out where it belongs.
    static func mean(of picture: Picture, x: Range<Double>, y: Range<Double>) -> (red: Double, green: Double, blue: Double) {
        var sums = (0.0, 0.0, 0.0)
        var count = 0.0
        let columns = Int(x.lowerBound * Double(picture.width))..<Int(x.upperBound * Double(picture.width))
        let rows = Int(y.lowerBound * Double(picture.height))..<Int(y.upperBound * Double(picture.height))
        for row in rows {
            for column in columns {
                let offset = (row * picture.width + column) * 4
                sums.0 += Double(picture.rgba[offset])
                sums.1 += Double(picture.rgba[offset + 1])
                sums.2 += Double(picture.rgba[offset + 2])
                count += 1
            }
        }
        return (sums.0 / max(count, 1), sums.1 / max(count, 1), sums.2 / max(count, 1))
    }

    /// Whether two colours are within `tolerance` on every channel.
    static func near(_ a: (red: Double, green: Double, blue: Double), _ b: (red: Double, green: Double, blue: Double), tolerance: Double) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance && abs(a.blue - b.blue) <= tolerance
    }

    static func tuple(_ colour: RGB) -> (red: Double, green: Double, blue: Double) {
        (Double(colour.red), Double(colour.green), Double(colour.blue))
    }

    /// Each quarter's centre (the middle half of it each way, clear of blended edges) is near
    /// its colour.
    static func quartersAreInPlace(_ picture: Picture, tolerance: Double = 40) -> [String] {
        var wrong: [String] = []
        for (name, colour, x, y) in [
            ("top-left", red, 0.1..<0.4, 0.1..<0.4), ("top-right", blue, 0.6..<0.9, 0.1..<0.4),
            ("bottom-left", green, 0.1..<0.4, 0.6..<0.9), ("bottom-right", yellow, 0.6..<0.9, 0.6..<0.9),
        ] {
            let found = mean(of: picture, x: x, y: y)
            if !near(found, tuple(colour), tolerance: tolerance) { wrong.append("\(name): \(found), expected \(colour)") }
        }
        return wrong
    }
}
