/// Characters put together from the bytes curses reads, across reads: a character whose first
/// bytes came in one read and the rest in a later one (a paste read as it arrives) is one
/// character, not lost. A byte that cannot stand where it is (a continuation byte with no
/// start, a start cutting a character short) costs that character alone, never the ones after.
public struct UTF8Assembler: Sendable {
    /// The bytes of the character begun (kept allocated: a paste is thousands of characters).
    private var pending: [UInt8] = []

    public init() {}

    /// The character `byte` completes, if it completes one.
    public mutating func take(_ byte: UInt8) -> Unicode.Scalar? {
        if !pending.isEmpty && byte & 0xC0 != 0x80 { pending.removeAll(keepingCapacity: true) }
        pending.append(byte)
        guard let length = Self.length(pending[0]) else {
            pending.removeAll(keepingCapacity: true)
            return nil
        }
        guard pending.count == length else { return nil }
        defer { pending.removeAll(keepingCapacity: true) }
        var bytes = pending.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&bytes) { return scalar }
        return nil
    }

    /// Forgets a character cut short (a key code came between its bytes).
    public mutating func reset() { pending.removeAll(keepingCapacity: true) }

    private static func length(_ lead: UInt8) -> Int? {
        switch lead {
        case 0x00...0x7F: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: nil
        }
    }
}
