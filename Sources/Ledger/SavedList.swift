/// The saved-list projection: what is saved, in the order it was added. A pure reducer.
public struct SavedList: Sendable, Equatable {
    public private(set) var items: [SavedItem] = []
    private var index: Set<MediaKey> = []

    public init() {}

    public init(items: [SavedItem]) {
        for item in items where !index.contains(item.key) {
            self.items.append(item)
            index.insert(item.key)
        }
    }

    public func contains(_ key: MediaKey) -> Bool { index.contains(key) }
    public var count: Int { items.count }

    public mutating func apply(_ recorded: RecordedDomainEvent) {
        switch recorded.event {
        case .favoriteAdded(let key):
            guard index.insert(key).inserted else { return }
            items.append(SavedItem(key: key, addedAt: recorded.recordedAt, position: recorded.position))
        case .favoriteImported(let key, let addedAt, _):
            guard index.insert(key).inserted else { return }
            items.append(SavedItem(key: key, addedAt: addedAt, position: recorded.position))
        case .favoriteRemoved(let key):
            guard index.remove(key) != nil else { return }
            items.removeAll { $0.key == key }
        case .accountDeleted:
            self = SavedList()
        default:
            break
        }
    }

    public static func == (a: SavedList, b: SavedList) -> Bool { a.items == b.items }
}
