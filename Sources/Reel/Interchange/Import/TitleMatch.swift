import Ledger

/// What became of one imported row: the TMDb title it is, or why it has none.
public enum TitleMatch: Sendable, Hashable {
    case matched(MediaKey)
    case unmatched(reason: String)

    public var key: MediaKey? {
        if case .matched(let key) = self { return key }
        return nil
    }
}
