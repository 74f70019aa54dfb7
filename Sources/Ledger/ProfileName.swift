/// A display name: 1–100 characters, no control characters, not only spaces.
public struct ProfileName: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    public init(_ value: String) throws(DomainError) {
        let count = value.count
        guard (1...100).contains(count) else { throw .invalidName("a name has 1 to 100 characters, this one has \(count)") }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidName("a name cannot contain control characters (tabs, newlines, escapes)")
        }
        guard !value.allSatisfy(\.isWhitespace) else { throw .invalidName("a name cannot be only spaces") }
        self.value = value
    }

    /// A name a person gives now (`settings name`, an import): what `init(_:)` takes, and
    /// neither an invisible formatting character that is not part of writing (a right-to-left
    /// override, a zero-width space, a byte-order mark: it would reorder or hide what the name
    /// shows; the zero-width joiners that emoji and some scripts need are kept) nor a name with no
    /// visible character. Names recorded before this check still read through `init(_:)`.
    public init(typed value: String) throws(DomainError) {
        try self.init(value)
        if let hidden = value.unicodeScalars.first(where: { $0.properties.generalCategory == .format && !Self.joiners.contains($0.value) }) {
            throw .invalidName(
                "a name cannot contain invisible formatting characters (U+\(String(hidden.value, radix: 16, uppercase: true).leftPadded(to: 4)))")
        }
        let visible = value.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .nonspacingMark, .enclosingMark: false
            default: !scalar.properties.isWhitespace && !Self.blanks.contains(scalar.value)
            }
        }
        guard visible else { throw .invalidName("a name needs at least one visible character") }
    }

    /// Letters and symbols that draw nothing: the Hangul fillers (U+115F, U+1160, U+3164,
    /// U+FFA0) and the blank braille pattern (U+2800). A name of only these looks empty.
    private static let blanks: Set<UInt32> = [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800]

    /// U+200C and U+200D: zero-width (non-)joiners, part of emoji sequences and of Persian,
    /// Arabic and Indic writing.
    private static let joiners: Set<UInt32> = [0x200C, 0x200D]

    public var description: String { value }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
