/// An image as pixels: `width × height` pixels of 8-bit red, green, blue and alpha (alpha not
/// premultiplied), row after row with no padding. What the decoders make and the renderers take.
public struct Picture: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width × height × 4` bytes.
    public let rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(width > 0 && height > 0 && rgba.count == width * height * 4, "a picture's pixels fill its size")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// A picture of one colour.
    public init(width: Int, height: Int, filledWith colour: RGB) {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            pixels[offset] = colour.red
            pixels[offset + 1] = colour.green
            pixels[offset + 2] = colour.blue
        }
        self.init(width: width, height: height, rgba: pixels)
    }

    /// The average colour of the visible pixels (alpha-weighted), for comparing a picture with
    /// what a renderer made of it.
    public var meanColour: (red: Double, green: Double, blue: Double) {
        var sums = (0.0, 0.0, 0.0)
        var weight = 0.0
        for offset in stride(from: 0, to: rgba.count, by: 4) {
            let alpha = Double(rgba[offset + 3]) / 255
            sums.0 += Double(rgba[offset]) * alpha
            sums.1 += Double(rgba[offset + 1]) * alpha
            sums.2 += Double(rgba[offset + 2]) * alpha
            weight += alpha
        }
        guard weight > 0 else { return (0, 0, 0) }
        return (sums.0 / weight, sums.1 / weight, sums.2 / weight)
    }
}

/// A colour of 8-bit channels.
public struct RGB: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}
