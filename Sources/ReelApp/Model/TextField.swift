/// A one-line text field (the Saved tab's filter, a point to travel to, a setting): what was
/// typed, edited at its end. The update gives it the keys while it is open.
public struct TextField: Sendable, Equatable {
    public var text: String
    /// The most characters it takes (a name is at most 100, a path at most 4,096).
    public var limit: Int

    public init(_ text: String = "", limit: Int = 200) {
        self.text = text
        self.limit = limit
    }

    /// What a key does to the field: a character typed, the last one erased; `nil` for a key it
    /// does not take (enter, esc, arrows), which the field's owner reads.
    public func typed(_ key: Key) -> TextField? {
        var next = self
        switch key {
        case .character(let c):
            // Fewer bytes than the limit is fewer characters, known without counting them (a
            // paste is thousands of keys, and counting is a walk over the whole text).
            guard next.text.utf8.count < limit || next.text.count < limit else { return self }
            next.text.append(c)
        case .backspace:
            if !next.text.isEmpty { next.text.removeLast() }
        case .control("u"):
            next.text = ""
        default:
            return nil
        }
        return next
    }
}
