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

    public var description: String { value }
}
