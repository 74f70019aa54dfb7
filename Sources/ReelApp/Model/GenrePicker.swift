/// The genre filter of a browsed tab, open over it (`f`): TMDb's genres of the tab's kind, with
/// the ones chosen marked, and whether a title needs all of them or any. Applied with `enter`,
/// dropped with `esc`.
public struct GenrePicker: Sendable, Equatable {
    public var names: [String]
    public var chosen: [String]
    public var anyGenre: Bool
    public var cursor = 0

    public init(names: [String], chosen: [String], anyGenre: Bool) {
        self.names = names
        self.chosen = chosen.filter(names.contains)
        self.anyGenre = anyGenre
    }

    /// The genre under the cursor chosen, or no longer; chosen ones keep the order they were
    /// chosen in (the heading names them so).
    public mutating func toggle() {
        guard names.indices.contains(cursor) else { return }
        let name = names[cursor]
        if let index = chosen.firstIndex(of: name) { chosen.remove(at: index) } else { chosen.append(name) }
    }
}
