/// The keys that move a cursor in a list: arrows and vim keys, home/end and `g G`, half a screen
/// (ctrl-d ctrl-u) and a screen (pgdn pgup).
extension ListCursor {
    /// The cursor `key` moves to in a list of `count` rows with `visible` on screen; `nil` when
    /// `key` moves nothing. `letters`: `j k g G` count too (not while typing).
    public func navigated(by key: Key, count: Int, visible: Int, letters: Bool = true) -> ListCursor? {
        let half = max(1, visible / 2)
        switch key {
        case .down: return moved(by: 1, count: count, visible: visible)
        case .up: return moved(by: -1, count: count, visible: visible)
        case .home: return moved(to: 0, count: count, visible: visible)
        case .end: return moved(to: count - 1, count: count, visible: visible)
        case .pageDown: return moved(by: visible, count: count, visible: visible)
        case .pageUp: return moved(by: -visible, count: count, visible: visible)
        case .control("d"): return moved(by: half, count: count, visible: visible)
        case .control("u") where letters: return moved(by: -half, count: count, visible: visible)
        case .character("j") where letters: return moved(by: 1, count: count, visible: visible)
        case .character("k") where letters: return moved(by: -1, count: count, visible: visible)
        case .character("g") where letters: return moved(to: 0, count: count, visible: visible)
        case .character("G") where letters: return moved(to: count - 1, count: count, visible: visible)
        default: return nil
        }
    }
}
