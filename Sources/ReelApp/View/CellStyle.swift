/// How a cell is drawn: attributes, and a colour named for what it means (the driver maps it to
/// a curses colour pair, or to none under `NO_COLOR`).
public struct CellStyle: Sendable, Equatable, Hashable {
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        // The values of the shim's reel_attr_flag.
        public static let bold = Attributes(rawValue: 1)
        public static let reverse = Attributes(rawValue: 2)
        public static let dim = Attributes(rawValue: 4)
        public static let underline = Attributes(rawValue: 8)
    }

    public enum Color: Int, Sendable, Hashable {
        case none = 0
        /// The ★ of a saved title.
        case saved
        /// The chosen tab.
        case accent
        case error
        /// A rating of 7 and up, of 5 and up, below 5 (`RowColumns.color(ofRating:)`).
        case good
        case fair
        case poor
    }

    public var attributes: Attributes = []
    public var color: Color = .none

    public init(_ attributes: Attributes = [], color: Color = .none) {
        self.attributes = attributes
        self.color = color
    }

    public static let plain = CellStyle()
}
