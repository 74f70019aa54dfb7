/// Where the cursor is in a list and which row is at the top of the screen: the cursor always
/// stays on screen, and the list scrolls only as far as it must to keep it there.
public struct ListCursor: Sendable, Equatable {
    public var position = 0
    /// The first row on screen.
    public var top = 0

    public init(position: Int = 0, top: Int = 0) {
        self.position = position
        self.top = top
    }

    /// The cursor moved by `delta` rows (or to `row`), kept within `count` rows, and the top moved
    /// so that it shows within `visible` rows.
    public func moved(by delta: Int, count: Int, visible: Int) -> ListCursor {
        moved(to: position + delta, count: count, visible: visible)
    }

    public func moved(to row: Int, count: Int, visible: Int) -> ListCursor {
        var next = self
        next.position = max(0, min(row, count - 1))
        return next.scrolled(count: count, visible: visible)
    }

    /// The top moved (the cursor kept) so that the cursor shows within `visible` rows: after a
    /// move, and after the screen changed size.
    public func scrolled(count: Int, visible: Int) -> ListCursor {
        var next = self
        let visible = max(1, visible)
        next.position = max(0, min(position, count - 1))
        if next.position < next.top { next.top = next.position }
        if next.position >= next.top + visible { next.top = next.position - visible + 1 }
        next.top = max(0, min(next.top, max(0, count - visible)))
        return next
    }
}
