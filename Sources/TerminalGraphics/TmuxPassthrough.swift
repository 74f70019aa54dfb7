/// What a program inside tmux knows about getting graphics past it: tmux draws its panes itself
/// and drops sequences it does not know, unless `allow-passthrough` is on, when a sequence
/// wrapped in `ESC P tmux; … ESC \` reaches the terminal tmux runs in.
public struct TmuxPassthrough: Sendable, Equatable {
    /// Whether `allow-passthrough` is on for the pane (`on` or `all`).
    public var passthrough: Bool

    public init(passthrough: Bool) {
        self.passthrough = passthrough
    }
}
