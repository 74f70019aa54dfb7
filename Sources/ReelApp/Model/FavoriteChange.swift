public import Reel

/// A title saved or removed from the app: what `x` asks for, and what `u` takes back by the
/// inverse change, a new event (history is never rewritten).
public struct FavoriteChange: Sendable, Equatable {
    public enum Action: Sendable, Equatable { case add, remove }

    public var action: Action
    public var key: MediaKey
    /// The title, to say what was done.
    public var title: String

    public init(_ action: Action, _ key: MediaKey, title: String) {
        self.action = action
        self.key = key
        self.title = title
    }

    /// The change that takes this one back.
    public var inverse: FavoriteChange {
        FavoriteChange(action == .add ? .remove : .add, key, title: title)
    }
}
