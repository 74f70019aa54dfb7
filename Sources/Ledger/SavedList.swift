/// The saved-list projection: what is saved, in the order it was added. A pure reducer.
///
/// Adding, removing and asking are O(1) (amortised): a removed item leaves a hole that is closed
/// when holes are half the slots, so a long history of adds and removes replays in linear time.
///
/// A change to a list whose storage is shared (an account's state kept in a cache, changed by the
/// next command) copies a bounded part of it, not the list: the slots are kept in chunks and the
/// index in shards, so the copy is one chunk, one shard and the arrays of their references. A
/// list stored whole would copy every title at each change (its items and its index), which
/// slowed the service's writes as lists grew: 7% of `reel serve`'s CPU went to copying the index
/// alone once its accounts held 2,000 titles each.
public struct SavedList: Sendable, Equatable {
    /// Slots per chunk.
    static let chunkSize = 256
    /// Shards of the index (a power of two).
    static let shardCount = 64

    /// Items in the order added, `nil` where one was removed: slot `s` is
    /// `chunks[s / chunkSize][s % chunkSize]`; every chunk but the last is full.
    private var chunks: [[SavedItem?]] = []
    private var slotCount = 0
    /// Each saved key's slot, in the shard its hash picks (none until a first title is saved).
    private var slotOf: [[MediaKey: Int]] = []
    /// How many are saved.
    public private(set) var count = 0

    public init() {}

    public init(items: [SavedItem]) {
        guard !items.isEmpty else { return }
        // Room for them all at once (a state read from the store, a compaction), not grown.
        slotOf = Array(repeating: Dictionary(minimumCapacity: items.count / Self.shardCount + 1), count: Self.shardCount)
        chunks.reserveCapacity(items.count / Self.chunkSize + 1)
        for (index, item) in items.enumerated() {
            if chunks.count * Self.chunkSize == slotCount {
                var chunk: [SavedItem?] = []
                chunk.reserveCapacity(min(Self.chunkSize, items.count - index))
                chunks.append(chunk)
            }
            add(item)
        }
    }

    /// What is saved, in the order it was added.
    public var items: [SavedItem] {
        var all: [SavedItem] = []
        all.reserveCapacity(count)
        for chunk in chunks {
            for case let item? in chunk { all.append(item) }
        }
        return all
    }

    public func contains(_ key: MediaKey) -> Bool { slot(of: key) != nil }

    /// The saved entry of `key`, if it is saved.
    public func item(_ key: MediaKey) -> SavedItem? { slot(of: key).flatMap { self[slot: $0] } }

    /// Where `key` is in `items`, if it is saved: O(1) while nothing was removed, else O(n).
    public func index(of key: MediaKey) -> Int? {
        guard let slot = slot(of: key) else { return nil }
        guard slotCount != count else { return slot }
        var index = 0
        for earlier in 0..<slot where self[slot: earlier] != nil { index += 1 }
        return index
    }

    /// `items[start...]`: O(its length) while nothing was removed, else O(n).
    public func items(from start: Int) -> ArraySlice<SavedItem> {
        guard slotCount == count else {
            let all = items
            return all[min(start, all.count)...]
        }
        var tail: [SavedItem] = []
        tail.reserveCapacity(max(0, count - start))
        for slot in min(start, slotCount)..<slotCount { tail.append(self[slot: slot]!) }
        return ArraySlice(tail)
    }

    public mutating func apply(_ recorded: RecordedDomainEvent) {
        switch recorded.event {
        case .favoriteAdded(let key):
            add(SavedItem(key: key, addedAt: recorded.recordedAt, position: recorded.position))
        case .favoriteImported(let key, let addedAt, _):
            add(SavedItem(key: key, addedAt: addedAt, position: recorded.position))
        case .favoriteRemoved(let key):
            guard !slotOf.isEmpty, let slot = slotOf[Self.shard(of: key)].removeValue(forKey: key) else { return }
            chunks[slot / Self.chunkSize][slot % Self.chunkSize] = nil
            count -= 1
            if slotCount >= 64, count <= slotCount / 2 { self = SavedList(items: items) }
        case .accountDeleted:
            self = SavedList()
        default:
            break
        }
    }

    private mutating func add(_ item: SavedItem) {
        if slotOf.isEmpty { slotOf = Array(repeating: [:], count: Self.shardCount) }
        let shard = Self.shard(of: item.key)
        // One hash for the usual case, a title not saved yet; a repeat puts its slot back.
        if let existing = slotOf[shard].updateValue(slotCount, forKey: item.key) {
            slotOf[shard][item.key] = existing
            return
        }
        // A new chunk grows as any array does: a short list holds no more than it needs.
        if chunks.count * Self.chunkSize == slotCount { chunks.append([]) }
        chunks[chunks.count - 1].append(item)
        slotCount += 1
        count += 1
    }

    private func slot(of key: MediaKey) -> Int? { slotOf.isEmpty ? nil : slotOf[Self.shard(of: key)][key] }

    private subscript(slot slot: Int) -> SavedItem? { chunks[slot / Self.chunkSize][slot % Self.chunkSize] }

    /// The index's shard of `key`: from its own numbers, not the process's seeded hash, so a list
    /// is laid out alike in every process (its copies cost the same everywhere).
    private static func shard(of key: MediaKey) -> Int {
        var mixed = UInt64(bitPattern: key.id) &* 0x9E37_79B9_7F4A_7C15
        if key.mediaType == .tv { mixed ^= 0xD6E8_FEB8_6659_FD93 }
        return Int(truncatingIfNeeded: mixed >> 58) & (shardCount - 1)
    }

    public static func == (a: SavedList, b: SavedList) -> Bool { a.items == b.items }
}
