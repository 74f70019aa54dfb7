/// A tile of the tree as C2SP tlog-tiles addresses it, `tile/<L>/<N>[.p/<W>]`: the `W` hashes
/// (256 in a full tile) at tree level `8 × L`, from index `256 × N` on, each the hash of a
/// complete subtree of `256^L` leaves, so each a stored hash (`TreeLayout`).
public struct TileAddress: Sendable, Equatable {
    public let level: Int
    public let index: UInt64
    /// 256 for a full tile; 1 to 255 for a partial one.
    public let width: Int

    public init?(level: Int, index: UInt64, width: Int) {
        // Level 8 would need 256^8 leaves a hash: more than a position counts.
        // A tile's last hash must have an index a position can reach: 256 × (index + 1) × 256^L
        // leaves at most 2^64 (level 7 has tile 0 only).
        guard (0...7).contains(level), (1...256).contains(width) else { return nil }
        guard level == 7 ? index == 0 : index < UInt64(1) << UInt64(64 - 8 * (level + 1)) else { return nil }
        self.level = level
        self.index = index
        self.width = width
    }

    /// The tile `path` names, the part after `tile/` (`1/x001/x234/067.p/5`); `nil` for a path
    /// that is not one as the specification writes them (no leading zeros in `L` and `W`, `N` in
    /// three-digit elements, all but the last starting with `x`), or a level above 7.
    public init?(path: String) {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, let level = Self.decimal(parts.removeFirst()) else { return nil }
        var width = 256
        if parts.count >= 2, parts[parts.count - 2].hasSuffix(".p") {
            guard let w = Self.decimal(parts.removeLast()), (1...255).contains(w) else { return nil }
            width = w
            parts[parts.count - 1] = parts[parts.count - 1].dropLast(2)
        }
        var index: UInt64 = 0
        for (number, part) in parts.enumerated() {
            let last = number == parts.count - 1
            let digits = last ? part[...] : part.dropFirst()
            guard last || part.first == "x", digits.count == 3, digits.allSatisfy(\.isASCIIDigit), let value = UInt64(digits) else { return nil }
            guard index <= (UInt64.max - value) / 1_000 else { return nil }
            index = index * 1_000 + value
        }
        self.init(level: level, index: index, width: width)
    }

    /// The path, `tile/<L>/<N>[.p/<W>]`.
    public var path: String {
        var groups: [String] = []
        var rest = index
        repeat {
            let group = String(rest % 1_000)
            groups.insert(String(repeating: "0", count: 3 - group.count) + group, at: 0)
            rest /= 1_000
        } while rest > 0
        let n = groups.enumerated().map { $0.offset == groups.count - 1 ? $0.element : "x" + $0.element }.joined(separator: "/")
        return "tile/\(level)/\(n)" + (width < 256 ? ".p/\(width)" : "")
    }

    /// Where its hashes are stored, in order.
    public var storedIndexes: [UInt64] {
        (0..<UInt64(width)).map { TreeLayout.storedIndex(level: 8 * level, index: index * 256 + $0) }
    }

    /// Whether a tree of `size` leaves holds all its hashes: the last one's subtree is complete.
    public func isComplete(in size: UInt64) -> Bool {
        // Every step checked: the index comes from a request's path.
        let first = index.multipliedReportingOverflow(by: 256)
        let last = first.partialValue.addingReportingOverflow(UInt64(width))
        let end = last.partialValue.multipliedReportingOverflow(by: UInt64(1) << UInt64(8 * level))
        return !first.overflow && !last.overflow && !end.overflow && end.partialValue <= size
    }

    private static func decimal(_ text: Substring) -> Int? {
        guard let value = Int(text), String(value) == text, value >= 0 else { return nil }
        return value
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
