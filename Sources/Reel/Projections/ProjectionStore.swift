import EventLog
import Failures
import Ledger

/// The projections kept in the ledger's environment, so they change in the same write transaction
/// as the events (see `Schemas/ledger-layout.md`, "Projections").
///
/// Two slots, `a` and `b`, each with its open accounts' states (stream id → the state's record, and
/// stream id ‖ page → each full page of its saved titles, all sealed under the account's key: see
/// `AccountStateCodec`), its handle directory (handle digest → stream id of the open account) and
/// its checkpoint (the last log position applied). `projections/live` names the slot in use; a
/// rebuild fills the other one and flips the name in one transaction. Deleted accounts have no
/// state: `deleted-accounts` keeps what may stay of them (see `DeletedAccount`).
struct ProjectionStore: Sendable {
    struct Slot: Sendable {
        let name: String
        /// Stream id → sealed state record (`AccountStateCodec`).
        let states: ProjectionTableName
        /// `AccountStateCodec.pageKey` → a sealed page of saved titles.
        let titles: ProjectionTableName
        /// Handle digest → stream id.
        let handles: ProjectionTableName
        /// `checkpoint` → the last position applied (big-endian).
        let meta: ProjectionTableName
    }

    /// `projections/format`: handles in the directory are digests since version 2; saved titles
    /// are pages apart from the state since version 3.
    static let format = "reel-projections/3"
    /// The tables kept beside the log that its events cannot make again: photos (events name them
    /// only) and what stays of deleted accounts (their handles are digests of what was sealed). A
    /// copy of the ledger carries them; the other projections are made again from the events.
    static let keptBesideTheLog = ["photos", "deleted-accounts"]
    static let stateContext = "account-state"
    static let titlesContext = "saved-titles"
    static let photoContext = "photo"

    let log: any EventStore
    /// `live` → the slot in use, `format` → `format`.
    let control: ProjectionTableName
    let slots: [Slot]
    /// Photos: `stream id ‖ 0x00 ‖` the photo's name (`photoKey`) → sealed bytes.
    let photos: ProjectionTableName
    /// Stream id → `DeletedAccount`.
    let deletedAccounts: ProjectionTableName

    init(log: any EventStore) throws {
        self.log = log
        control = try log.projectionTable(named: "projections")
        slots = try ["a", "b"].map { name in
            Slot(
                name: name,
                states: try log.projectionTable(named: "projection-\(name)-states"),
                titles: try log.projectionTable(named: "projection-\(name)-titles"),
                handles: try log.projectionTable(named: "projection-\(name)-handles"),
                meta: try log.projectionTable(named: "projection-\(name)-meta"))
        }
        photos = try log.projectionTable(named: "photos")
        deletedAccounts = try log.projectionTable(named: "deleted-accounts")
    }

    func liveSlot(_ txn: any EventStoreSnapshot) throws -> Slot {
        try txn.table(control).get(Array("live".utf8)) == Array("b".utf8) ? slots[1] : slots[0]
    }

    func spareSlot(_ txn: any EventStoreSnapshot) throws -> Slot {
        try liveSlot(txn).name == "a" ? slots[1] : slots[0]
    }

    func checkpoint(_ slot: Slot, _ txn: any EventStoreSnapshot) throws -> UInt64 {
        guard let bytes = try txn.table(slot.meta).get(Array("checkpoint".utf8)) else { return 0 }
        guard bytes.count == 8 else {
            throw ReelError.corruptProjection(stream: "projection-\(slot.name)-meta", reason: "its checkpoint has \(bytes.count) bytes, not 8")
        }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    func stream(for handle: AccountHandle, _ slot: Slot, _ txn: any EventStoreSnapshot) throws -> StreamID? {
        guard let raw = try txn.table(slot.handles).get(HandleDigest.directoryKey(handle)) else { return nil }
        return try StreamID(try Self.string(raw, in: slot.handles))
    }

    /// Stored bytes as the UTF-8 string they must be (a stream id).
    static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes, in table: ProjectionTableName) throws -> String {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw ReelError.corruptProjection(stream: table.name, reason: "a stream id of \(bytes.count) bytes is not UTF-8")
        }
        return string
    }

    func state(of stream: StreamID, _ slot: Slot, _ txn: any EventStoreSnapshot) throws -> AccountState? {
        let opened: [UInt8]?? = try txn.table(slot.states).withValue(Array(stream.rawValue.utf8)) { sealed in
            guard let sealed else { return .none }
            return .some(try log.openBlob(sealed, for: stream, context: Self.stateContext))
        }
        guard let opened else { return nil }
        guard let record = opened else { return nil }  // shredded: the state is gone with the key
        let prefix = AccountStateCodec.pagePrefix(stream)
        var indexes: [Int] = [], sealed: [[UInt8]] = []
        try txn.table(slot.titles).forEach(prefix: prefix) { key, value in
            guard let index = AccountStateCodec.pageIndex(inKey: key, prefix: prefix.count) else {
                throw ReelError.corruptProjection(stream: stream.rawValue, reason: "a stored page of titles has a malformed key")
            }
            indexes.append(index)
            sealed.append(Array(value))
        }
        guard let pages = try log.openBlobs(sealed, for: stream, context: Self.titlesContext) else { return nil }
        do {
            return try AccountStateCodec.decode(try AccountStateCodec.assembled(record: record, pages: zip(indexes, pages).map { ($0, $1) }))
        } catch {
            throw ReelError.corruptProjection(stream: stream.rawValue, reason: "the stored state does not decode")
        }
    }

    /// Every stored state of a slot (shredded ones left out); a damaged one is an error.
    func allStates(_ slot: Slot, _ txn: any EventStoreSnapshot) throws -> [StreamID: AccountState] {
        let (states, _, damaged, strays) = try readableStates(slot, txn)
        if let first = damaged.first {
            throw ReelError.corruptProjection(stream: first.rawValue, reason: "the stored state does not authenticate or decode")
        }
        if strays > 0 {
            throw ReelError.corruptProjection(stream: slot.titles.name, reason: "\(strays) stored pages of titles have keys that name no stream")
        }
        return states
    }

    /// Every stored state of a slot that can be read, the streams whose state cannot, and how many
    /// pages of titles have keys that name no stream (`strays`). A state whose plaintexts are byte
    /// for byte its entry in `expected` (what a rebuild would store) is only listed in `matching`,
    /// not decoded: comparing bytes is what makes a rebuild's check cheap.
    func readableStates(_ slot: Slot, _ txn: any EventStoreSnapshot, expected: [StreamID: EncodedState] = [:]) throws
        -> (states: [StreamID: AccountState], matching: Set<StreamID>, damaged: [StreamID], strays: Int)
    {
        /// A stored state's sealed parts (copied out of the table: its bytes last only for the call).
        struct Stored: Sendable {
            let stream: StreamID
            let record: [UInt8]
            var pages: [(index: Int, sealed: [UInt8])] = []
            /// A page whose key does not parse.
            var malformed = false
        }
        enum Outcome: Sendable { case state(AccountState), matching, shredded, damaged }
        var stored: [Stored] = []
        var index: [[UInt8]: Int] = [:]  // page key prefix → its entry in `stored`
        try txn.table(slot.states).forEach { key, value in
            let stream = try StreamID(try Self.string(Array(key), in: slot.states))
            index[AccountStateCodec.pagePrefix(stream)] = stored.count
            stored.append(Stored(stream: stream, record: Array(value)))
            return true
        }
        // Pages come in key order: one stream's after another's.
        var orphans = Set<[UInt8]>()
        var strays = 0
        try txn.table(slot.titles).forEach { key, value in
            guard let zero = key.firstIndex(of: 0) else {
                strays += 1
                return true
            }
            let prefix = Array(key.extracting(0..<zero + 1))
            guard let i = index[prefix] else {
                orphans.insert(prefix)
                return true
            }
            if let page = AccountStateCodec.pageIndex(inKey: key, prefix: prefix.count) {
                stored[i].pages.append((page, Array(value)))
            } else {
                stored[i].malformed = true
            }
            return true
        }
        // Opening (AES-GCM) and decoding each state is independent work: on all cores.
        let log = self.log
        let outcomes = try Parallel.map(stored, state: ()) { _, s -> Outcome in
            do {
                guard !s.malformed else { return .damaged }
                let opened = try log.openBlob(s.record, for: s.stream, context: Self.stateContext)
                guard let record = opened else { return .shredded }
                guard let pages = try log.openBlobs(s.pages.map(\.sealed), for: s.stream, context: Self.titlesContext) else { return .shredded }
                let plain = zip(s.pages, pages).map { (index: $0.index, plain: $1) }
                if let expected = expected[s.stream], expected.record == record, expected.pages.elementsEqual(plain, by: { $0 == $1 }) {
                    return .matching
                }
                return .state(try AccountStateCodec.decode(try AccountStateCodec.assembled(record: record, pages: plain)))
            } catch EventLogError.corruptBlob {
                return .damaged
            } catch let error as EventLogError {
                throw error
            } catch let error as Failure {
                // The key store's own refusal (its keyring missing, another's, of another
                // generation): said as it is, not taken for this state's damage.
                throw error
            } catch {
                return .damaged  // does not decode
            }
        }
        var states: [StreamID: AccountState] = [:]
        var matching = Set<StreamID>()
        var damaged: [StreamID] = []
        for (s, outcome) in zip(stored, outcomes) {
            switch outcome {
            case .state(let state): states[s.stream] = state
            case .matching: matching.insert(s.stream)
            case .shredded: break
            case .damaged: damaged.append(s.stream)
            }
        }
        // Pages of no stored state: the state they belong to is damaged (its record is gone).
        for prefix in orphans.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            guard let name = String(validating: prefix.dropLast(), as: UTF8.self), let stream = try? StreamID(name) else {
                strays += 1
                continue
            }
            damaged.append(stream)
        }
        return (states, matching, damaged, strays)
    }

    /// About how many bytes a slot's databases take (whole pages): what a rewrite of it needs.
    func bytes(of slot: Slot, _ txn: any EventStoreSnapshot) throws -> Int {
        try txn.table(slot.states).storedBytes() + txn.table(slot.titles).storedBytes() + txn.table(slot.handles).storedBytes()
            + txn.table(slot.meta).storedBytes()
    }

    /// Empties a slot (before a rebuild fills it, and after it is swapped out).
    func clear(_ slot: Slot, _ txn: any EventStoreWrite) throws {
        try txn.table(slot.states).removeAll()
        try txn.table(slot.titles).removeAll()
        try txn.table(slot.handles).removeAll()
        try txn.table(slot.meta).removeAll()
    }

    /// The handle directory: handle digest → stream id.
    func allHandles(_ slot: Slot, _ txn: any EventStoreSnapshot) throws -> [[UInt8]: StreamID] {
        var out: [[UInt8]: StreamID] = [:]
        try txn.table(slot.handles).forEach { key, value in
            out[Array(key)] = try StreamID(try Self.string(Array(value), in: slot.handles))
            return true
        }
        return out
    }

    /// A state ready to store: its record and the pages of titles to write and delete, or no
    /// record for a deleted account (whose record and pages go).
    struct EncodedState: Sendable {
        let stream: StreamID
        /// The record's plaintext (`AccountStateCodec`: the header and the tail of the list).
        let record: [UInt8]?
        /// Full pages to write, by index, as plaintext (`AccountStateCodec.page`).
        let pages: [(index: Int, plain: [UInt8])]
        /// Pages to delete (the list has fewer full pages than the one stored).
        let unused: Range<Int>
    }

    /// Encodes the states `set` changed (a replayed set touched every state it holds; a set loaded
    /// on demand also holds states it only read), on all cores: a set built from nothing whole,
    /// one loaded on stored states as its record and the full pages from its first change on.
    func encoded(_ set: ProjectionSet) throws -> [EncodedState] {
        let touched = set.states.filter { set.touched.contains($0.key) }.map { (stream: $0.key, state: $0.value) }
        let fresh = set.isFresh
        let changes = set.savedChanges
        return try Parallel.map(touched, state: ()) { _, entry in
            let saved = entry.state.saved
            // A deleted account's state goes; so does a moved one's once its key is destroyed (a
            // replay then reads no handle): until then it stays, refusing commands, under its handle.
            guard entry.state.status == .open || (entry.state.status == .moved && entry.state.handle != nil) else {
                return EncodedState(stream: entry.stream, record: nil, pages: [], unused: 0..<0)
            }
            let size = AccountStateCodec.pageSize
            let full = AccountStateCodec.fullPages(saved.count)
            // The first full page to write, and how many full pages are stored.
            let (first, stored): (Int, Int)
            if fresh {
                (first, stored) = (0, 0)
            } else if let change = changes[entry.stream] {
                (first, stored) = (min(change.from / size, full), AccountStateCodec.fullPages(change.storedCount))
            } else {
                (first, stored) = (full, full)
            }
            // Pages `first ..< full`, then the tail.
            let titles = saved.items(from: first * size)
            var pages: [(index: Int, plain: [UInt8])] = []
            var start = titles.startIndex
            for index in first..<full {
                pages.append((index, AccountStateCodec.page(titles[start..<(start + size)])))
                start += size
            }
            let record = AccountStateCodec.header(of: entry.state) + AccountStateCodec.page(titles[start...])
            return EncodedState(stream: entry.stream, record: record, pages: pages, unused: full..<max(full, stored))
        }
    }

    /// Writes what `set` changed into `slot`, and the checkpoint.
    func save(_ set: ProjectionSet, into slot: Slot, _ txn: any EventStoreWrite) throws {
        try save(set, encoded: try encoded(set), into: slot, txn)
    }

    /// The same with the states encoded already (`encoded(set)`). A set built from nothing goes
    /// into a slot without its states (a cleared one).
    func save(_ set: ProjectionSet, encoded: [EncodedState], into slot: Slot, _ txn: any EventStoreWrite) throws {
        // Sealing each state is independent work: on all cores, then stored in order.
        let log = self.log
        let sealed = try Parallel.map(encoded, state: ()) { _, entry -> (record: [UInt8], pages: [[UInt8]])? in
            guard let record = entry.record else { return nil }
            return (
                try log.sealBlob(record, for: entry.stream, context: Self.stateContext),
                try log.sealBlobs(entry.pages.map(\.plain), for: entry.stream, context: Self.titlesContext)
            )
        }
        let states = txn.table(slot.states)
        let titles = txn.table(slot.titles)
        for (entry, blobs) in zip(encoded, sealed) {
            let key = Array(entry.stream.rawValue.utf8)
            if let blobs {
                try states.put(key, blobs.record)
                try titles.put(contentsOf: zip(entry.pages, blobs.pages).map { (AccountStateCodec.pageKey(entry.stream, $0.0.index), $0.1) })
                for index in entry.unused { try titles.delete(AccountStateCodec.pageKey(entry.stream, index)) }
            } else {
                try states.delete(key)
                try titles.removeAll(prefix: AccountStateCodec.pagePrefix(entry.stream))
            }
        }
        let handles = txn.table(slot.handles)
        for (handle, stream) in set.handles {
            if let stream {
                try handles.put(HandleDigest.directoryKey(handle), Array(stream.rawValue.utf8))
            } else {
                try handles.delete(HandleDigest.directoryKey(handle))
            }
        }
        try txn.table(slot.meta).put(Array("checkpoint".utf8), withUnsafeBytes(of: set.position.bigEndian) { Array($0) })
    }

    /// Applies every event after the live slot's checkpoint (appended by another program, or
    /// before the projections existed). Returns how many were applied.
    @discardableResult
    func catchUp(_ write: any EventStoreWrite, projector: Projector) throws -> Int {
        let txn = write
        let slot = try liveSlot(txn)
        let from = try checkpoint(slot, txn)
        guard from < write.headPosition else { return 0 }
        var set = ProjectionSet(position: from, projector: projector) { try state(of: $0, slot, txn) }
        var applied = 0
        var next = from + 1
        // Up to the head and no further: each batch is gapless and ends where the next begins.
        while next <= write.headPosition {
            let batch = try write.readToHead(from: next, maxCount: 4_096)
            for event in batch { try set.apply(event) }
            applied += batch.count
            next += UInt64(batch.count)
        }
        try save(set, into: slot, txn)
        return applied
    }

    // MARK: - Deleted accounts

    func deletedAccounts(_ txn: any EventStoreSnapshot) throws -> [StreamID: DeletedAccount] {
        var out: [StreamID: DeletedAccount] = [:]
        try txn.table(deletedAccounts).forEach { key, value in
            let stream = try StreamID(try Self.string(Array(key), in: deletedAccounts))
            guard let record = DeletedAccount(stream: stream, bytes: Array(value)) else {
                throw ReelError.corruptProjection(stream: stream.rawValue, reason: "its deleted-account record is malformed")
            }
            out[stream] = record
            return true
        }
        return out
    }

    /// Removes `stream`'s state, its saved list and its handle's directory entry (if the handle
    /// still names it) from `slot`: an account moved to another shard, whose key is about to be
    /// destroyed here (a replay then finds nothing to store of it either).
    func forget(_ stream: StreamID, handle: AccountHandle?, _ slot: Slot, _ txn: any EventStoreWrite) throws {
        try txn.table(slot.states).delete(Array(stream.rawValue.utf8))
        try txn.table(slot.titles).removeAll(prefix: AccountStateCodec.pagePrefix(stream))
        if let handle, try self.stream(for: handle, slot, txn) == stream {
            try txn.table(slot.handles).delete(HandleDigest.directoryKey(handle))
        }
    }

    /// Removes every photo of `stream` (sealed under its key, which is about to be destroyed).
    func removePhotos(of stream: StreamID, _ txn: any EventStoreWrite) throws {
        try txn.table(photos).removeAll(prefix: Array(stream.rawValue.utf8) + [0])
    }

    /// Where a photo is kept: `stream ‖ 0x00 ‖` a name keyed by the stream's key (`blobName`),
    /// so the photo's digest is not in the key, nor in freed pages after a deletion.
    static func photoKey(_ stream: StreamID, _ sha256: String, log: any StreamKeyStore) throws -> [UInt8] {
        Array(stream.rawValue.utf8) + [0] + Array(try log.blobName(Array(sha256.utf8), for: stream, context: photoContext).utf8)
    }

    /// Where earlier versions of Reel kept a photo: its SHA-256 in the clear (still read).
    static func legacyPhotoKey(_ stream: StreamID, _ sha256: String) -> [UInt8] {
        Array(stream.rawValue.utf8) + [0] + Array(sha256.utf8)
    }
}
