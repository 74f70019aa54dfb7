/// One entry of the saved list.
public struct SavedItem: Sendable, Hashable {
    public let key: MediaKey
    /// When it was added: the recorded-at of its `favorite-added` event, or the original time an
    /// import carried (`favorite-imported`), in microseconds (UTC).
    public let addedAt: Int64
    /// The log position of that event.
    public let position: UInt64

    public init(key: MediaKey, addedAt: Int64, position: UInt64) {
        self.key = key
        self.addedAt = addedAt
        self.position = position
    }
}
