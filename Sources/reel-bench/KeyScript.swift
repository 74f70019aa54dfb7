/// The keys `reel-bench ui` types: the navigation keys of a list in a fixed pseudo-random mix
/// (the same every run, so the warm-up run asks for the pages the timed run shows): mostly runs of
/// `j` or `k` (single-row moves, the common case), and half-screen (`ctrl-d`, `ctrl-u`) and
/// whole-list jumps (`G`, `g`).
enum KeyScript {
    enum Key: String, CaseIterable {
        case down = "j", up = "k", halfDown = "ctrl-d", halfUp = "ctrl-u", last = "G", first = "g"

        /// What the terminal sends.
        var bytes: [UInt8] {
            switch self {
            case .down: [0x6A]
            case .up: [0x6B]
            case .halfDown: [0x04]
            case .halfUp: [0x15]
            case .last: [0x47]
            case .first: [0x67]
            }
        }

        /// How far it moves: one row, half a screen, or to an end.
        var kind: Kind {
            switch self {
            case .down, .up: .row
            case .halfDown, .halfUp: .halfScreen
            case .last, .first: .end
            }
        }
    }

    enum Kind: String, CaseIterable { case row = "j k", halfScreen = "ctrl-d ctrl-u", end = "G g" }

    /// `count` keys: 70 % runs of 1–8 `j` or `k` (down a little more often), 10 % each `ctrl-d`
    /// and `ctrl-u`, 5 % each `G` and `g`.
    static func make(count: Int, seed: UInt64 = 0x5EED_0020) -> [Key] {
        var state = seed
        func next(_ bound: UInt64) -> Int {
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % bound)
        }
        var keys: [Key] = []
        while keys.count < count {
            switch next(100) {
            case ..<70: keys += Array(repeating: next(10) < 6 ? .down : .up, count: 1 + next(8))
            case ..<80: keys.append(.halfDown)
            case ..<90: keys.append(.halfUp)
            case ..<95: keys.append(.last)
            default: keys.append(.first)
            }
        }
        return Array(keys.prefix(count))
    }
}
