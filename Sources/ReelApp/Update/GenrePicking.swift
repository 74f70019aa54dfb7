/// The genre picker's keys, the same on every list that has one (Movies, Series, Saved): move,
/// `space` chooses, `a` all of them or any, `enter` applies, `esc` (or `q`) closes it unchanged.
/// It takes every key but ctrl-c while open.
enum GenrePicking {
    enum Outcome: Equatable {
        /// Still open, as it now is.
        case open(GenrePicker)
        /// Closed with these genres chosen.
        case applied(genres: [String], anyGenre: Bool)
        /// Closed, nothing changed.
        case cancelled
    }

    static func key(_ key: Key, _ picker: GenrePicker) -> Outcome {
        var picker = picker
        switch key {
        case .down, .character("j"): picker.cursor = min(picker.names.count - 1, picker.cursor + 1)
        case .up, .character("k"): picker.cursor = max(0, picker.cursor - 1)
        case .home, .character("g"): picker.cursor = 0
        case .end, .character("G"): picker.cursor = max(0, picker.names.count - 1)
        case .character(" "): picker.toggle()
        case .character("a"): picker.anyGenre.toggle()
        case .escape, .character("q"): return .cancelled
        case .enter: return .applied(genres: picker.chosen, anyGenre: picker.anyGenre)
        default: break
        }
        return .open(picker)
    }
}
