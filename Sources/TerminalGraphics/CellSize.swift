/// The size of one character cell in pixels, which keeps a picture's aspect ratio when it is drawn
/// in cells (a cell is about twice as tall as it is wide, but not exactly, and not everywhere).
public struct CellSize: Sendable, Hashable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    /// Nil unless both are plausible (1…1,000 pixels): a terminal's answer is data.
    public init?(width: Int, height: Int) {
        guard (1...1_000).contains(width), (1...1_000).contains(height) else { return nil }
        self.width = width
        self.height = height
    }

    /// What a renderer assumes when the terminal did not say: a common 10×20.
    public static let assumed = CellSize(unchecked: 10, 20)

    private init(unchecked width: Int, _ height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)×\(height) px" }
}
