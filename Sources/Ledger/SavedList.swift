/// The saved-list projection: what is saved, in the order it was added. A pure reducer.
///
/// Adding, removing and asking are O(1) (amortised): a removed item leaves a hole that is closed
/// when holes are half the slots, so a long history of adds and removes replays in linear time.
public struct SavedList: Sendable, Equatable {
    /// Items in the order added; `nil` where one was removed.
    private var slots: [SavedItem?] = []
    private var slotOf: [MediaKey: Int] = [:]

    public init() {}

    public init(items: [SavedItem]) {
        slots.reserveCapacity(items.count)
        slotOf.reserveCapacity(items.count)
        for item in items where slotOf[item.key] == nil {
            slotOf[item.key] = slots.count
            slots.append(item)
        }
    }

    /// What is saved, in the order it was added.
    public var items: [SavedItem] { slots.count == slotOf.count ? slots.map { $0! } : slots.compactMap { $0 } }

    public func contains(_ key: MediaKey) -> Bool { slotOf[key] != nil }

    /// The saved entry of `key`, if it is saved.
    public func item(_ key: MediaKey) -> SavedItem? { slotOf[key].flatMap { slots[$0] } }

    /// Where `key` is in `items`, if it is saved: O(1) while nothing was removed, else O(n).
    public func index(of key: MediaKey) -> Int? {
        guard let slot = slotOf[key] else { return nil }
        return slots.count == slotOf.count ? slot : slots[..<slot].reduce(0) { $1 == nil ? $0 : $0 + 1 }
    }

    /// `items[start...]`: O(its length) while nothing was removed, else O(n).
    public func items(from start: Int) -> ArraySlice<SavedItem> {
        if slots.count == slotOf.count { return ArraySlice(slots[min(start, slots.count)...].map { $0! }) }
        let all = items
        return all[min(start, all.count)...]
    }
    public var count: Int { slotOf.count }

    public mutating func apply(_ recorded: RecordedDomainEvent) {
        switch recorded.event {
        case .favoriteAdded(let key):
            add(SavedItem(key: key, addedAt: recorded.recordedAt, position: recorded.position))
        case .favoriteImported(let key, let addedAt, _):
            add(SavedItem(key: key, addedAt: addedAt, position: recorded.position))
        case .favoriteRemoved(let key):
            guard let slot = slotOf.removeValue(forKey: key) else { return }
            slots[slot] = nil
            if slots.count >= 64, slotOf.count <= slots.count / 2 { self = SavedList(items: items) }
        case .accountDeleted:
            self = SavedList()
        default:
            break
        }
    }

    private mutating func add(_ item: SavedItem) {
        // One hash for the usual case, a title not saved yet; a repeat puts its slot back.
        if let existing = slotOf.updateValue(slots.count, forKey: item.key) {
            slotOf[item.key] = existing
            return
        }
        slots.append(item)
    }

    public static func == (a: SavedList, b: SavedList) -> Bool { a.items == b.items }
}
