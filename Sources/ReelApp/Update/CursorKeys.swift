extension ListCursor {
    /// The cursor moved by a navigation key (arrows, vim keys, home and end, a page, half a page)
    /// in a list of `count` rows with `visible` on screen; `nil` for a key that does not move it.
    func moved(for key: Key, count: Int, visible: Int) -> ListCursor? {
        let half = max(1, visible / 2)
        return switch key {
        case .down, .character("j"): moved(by: 1, count: count, visible: visible)
        case .up, .character("k"): moved(by: -1, count: count, visible: visible)
        case .home, .character("g"): moved(to: 0, count: count, visible: visible)
        case .end, .character("G"): moved(to: count - 1, count: count, visible: visible)
        case .control("d"): moved(by: half, count: count, visible: visible)
        case .control("u"): moved(by: -half, count: count, visible: visible)
        case .pageDown: moved(by: visible, count: count, visible: visible)
        case .pageUp: moved(by: -visible, count: count, visible: visible)
        default: nil
        }
    }
}
