import EventLog
import LMDB
import Ledger

/// The projections kept in the ledger's environment, so they change in the same write transaction
/// as the events (see `Schemas/ledger-layout.md`, "Projections").
///
/// Two slots, `a` and `b`, each with its open accounts' states (stream id → state, sealed under
/// the account's key), its handle directory (handle digest → stream id of the open account) and
/// its checkpoint (the last log position applied). `projections/live` names the slot in use; a
/// rebuild fills the other one and flips the name in one transaction. Deleted accounts have no
/// state: `deleted-accounts` keeps what may stay of them (see `DeletedAccount`).
struct ProjectionStore: Sendable {
    struct Slot: Sendable {
        let name: String
        let states: Database<String, [UInt8]>
        let handles: Database<[UInt8], String>
        let meta: Database<String, UInt64>
    }

    /// `projections/format`: handles in the directory are digests since version 2.
    static let format = "reel-projections/2"
    static let stateContext = "account-state"
    static let photoContext = "photo"

    let log: EventLog
    let control: Database<String, [UInt8]>
    let slots: [Slot]
    /// Photos: `stream id ‖ 0x00 ‖ sha256 hex` → sealed bytes.
    let photos: Database<[UInt8], [UInt8]>
    let deletedAccounts: Database<String, [UInt8]>

    init(log: EventLog) throws {
        self.log = log
        let env = log.environment
        control = try env.database(named: "projections")
        slots = try ["a", "b"].map { name in
            Slot(
                name: name,
                states: try env.database(named: "projection-\(name)-states"),
                handles: try env.database(named: "projection-\(name)-handles"),
                meta: try env.database(named: "projection-\(name)-meta"))
        }
        photos = try env.database(named: "photos")
        deletedAccounts = try env.database(named: "deleted-accounts")
    }

    func liveSlot(_ txn: Transaction) throws -> Slot {
        try txn.get(control, "live") == Array("b".utf8) ? slots[1] : slots[0]
    }

    func spareSlot(_ txn: Transaction) throws -> Slot {
        try liveSlot(txn).name == "a" ? slots[1] : slots[0]
    }

    func checkpoint(_ slot: Slot, _ txn: Transaction) throws -> UInt64 {
        try txn.get(slot.meta, "checkpoint") ?? 0
    }

    func stream(for handle: AccountHandle, _ slot: Slot, _ txn: Transaction) throws -> StreamID? {
        guard let raw = try txn.get(slot.handles, HandleDigest.directoryKey(handle)) else { return nil }
        return try StreamID(raw)
    }

    func state(of stream: StreamID, _ slot: Slot, _ txn: Transaction) throws -> AccountState? {
        let opened: [UInt8]?? = try txn.withValue(slot.states, stream.rawValue) { sealed in
            guard let sealed else { return .none }
            return .some(try log.openBlob(sealed, for: stream, context: Self.stateContext))
        }
        guard let opened else { return nil }
        guard let plain = opened else { return nil }  // shredded: the state is gone with the key
        do {
            return try AccountStateCodec.decode(plain)
        } catch {
            throw ReelError.corruptProjection(stream: stream.rawValue, reason: "the stored state does not decode")
        }
    }

    /// Every stored state of a slot (shredded ones left out); a damaged one is an error.
    func allStates(_ slot: Slot, _ txn: Transaction) throws -> [StreamID: AccountState] {
        let (states, _, damaged) = try readableStates(slot, txn)
        if let first = damaged.first {
            throw ReelError.corruptProjection(stream: first.rawValue, reason: "the stored state does not authenticate or decode")
        }
        return states
    }

    /// Every stored state of a slot that can be read, and the streams whose state cannot. A state
    /// whose plaintext is byte for byte its entry in `expected` (what a rebuild would store) is
    /// only listed in `matching`, not decoded: comparing bytes is what makes a rebuild's check cheap.
    func readableStates(_ slot: Slot, _ txn: Transaction, expected: [StreamID: [UInt8]] = [:]) throws
        -> (states: [StreamID: AccountState], matching: Set<StreamID>, damaged: [StreamID])
    {
        /// A stored state's sealed bytes in the map (valid in `txn`).
        struct Stored: @unchecked Sendable {
            let stream: StreamID
            let sealed: UnsafeRawBufferPointer
            let expected: [UInt8]?
        }
        enum Outcome: Sendable { case state(AccountState), matching, shredded, damaged }
        var stored: [Stored] = []
        try txn.withCursor(slot.states) { cursor in
            var entry = try cursor.first()
            while let e = entry {
                let stream = try StreamID(try e.decodeKey(as: String.self))
                stored.append(Stored(stream: stream, sealed: e.value, expected: expected.isEmpty ? nil : expected[stream]))
                entry = try cursor.next()
            }
        }
        // Opening (AES-GCM) and decoding each state is independent work: on all cores.
        let log = self.log
        let outcomes = try Parallel.map(stored, state: ()) { _, s -> Outcome in
            do {
                guard let plain = try log.openBlob(s.sealed, for: s.stream, context: Self.stateContext) else { return .shredded }
                if let expected = s.expected, expected == plain { return .matching }
                return .state(try AccountStateCodec.decode(plain))
            } catch EventLogError.corruptBlob {
                return .damaged
            } catch let error as EventLogError {
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
        return (states, matching, damaged)
    }

    /// About how many bytes a slot's databases take (whole pages): what a rewrite of it needs.
    func bytes(of slot: Slot, _ txn: Transaction) throws -> Int {
        func pages(_ s: DatabaseStatistics) -> Int { (s.branchPages + s.leafPages + s.overflowPages) * s.pageSize }
        return try pages(txn.statistics(slot.states)) + pages(txn.statistics(slot.handles)) + pages(txn.statistics(slot.meta))
    }

    /// The handle directory: handle digest → stream id.
    func allHandles(_ slot: Slot, _ txn: Transaction) throws -> [[UInt8]: StreamID] {
        var out: [[UInt8]: StreamID] = [:]
        try txn.withCursor(slot.handles) { cursor in
            var entry = try cursor.first()
            while let e = entry {
                out[Array(e.key)] = try StreamID(try e.decodeValue(as: String.self))
                entry = try cursor.next()
            }
        }
        return out
    }

    /// A state ready to store: its encoding, or `nil` for a deleted account (whose state goes).
    struct EncodedState: Sendable {
        let stream: StreamID
        let bytes: [UInt8]?
    }

    /// Encodes the states `set` changed (a replayed set touched every state it holds; a set loaded
    /// on demand also holds states it only read), on all cores.
    func encoded(_ set: ProjectionSet) throws -> [EncodedState] {
        let touched = set.states.filter { set.touched.contains($0.key) }.map { (stream: $0.key, state: $0.value) }
        return try Parallel.map(touched, state: ()) { _, entry in
            EncodedState(stream: entry.stream, bytes: entry.state.status == .open ? AccountStateCodec.encode(entry.state) : nil)
        }
    }

    /// Writes what `set` changed into `slot`, and the checkpoint.
    func save(_ set: ProjectionSet, into slot: Slot, _ txn: Transaction) throws {
        try save(set, encoded: try encoded(set), into: slot, txn)
    }

    /// The same with the states encoded already (`encoded(set)`).
    func save(_ set: ProjectionSet, encoded: [EncodedState], into slot: Slot, _ txn: Transaction) throws {
        // Sealing each state is independent work: on all cores, then stored in order.
        let log = self.log
        let sealed = try Parallel.map(encoded, state: ()) { _, entry -> [UInt8]? in
            try entry.bytes.map { try log.sealBlob($0, for: entry.stream, context: Self.stateContext) }
        }
        for (entry, blob) in zip(encoded, sealed) {
            if let blob {
                try txn.put(slot.states, entry.stream.rawValue, blob)
            } else {
                try txn.delete(slot.states, entry.stream.rawValue)
            }
        }
        for (handle, stream) in set.handles {
            if let stream {
                try txn.put(slot.handles, HandleDigest.directoryKey(handle), stream.rawValue)
            } else {
                try txn.delete(slot.handles, HandleDigest.directoryKey(handle))
            }
        }
        try txn.put(slot.meta, "checkpoint", set.position)
    }

    /// Applies every event after the live slot's checkpoint (appended by another program, or
    /// before the projections existed). Returns how many were applied.
    @discardableResult
    func catchUp(_ write: LedgerWrite, projector: Projector) throws -> Int {
        let txn = write.transaction
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

    func deletedAccounts(_ txn: Transaction) throws -> [StreamID: DeletedAccount] {
        var out: [StreamID: DeletedAccount] = [:]
        try txn.withCursor(deletedAccounts) { cursor in
            var entry = try cursor.first()
            while let e = entry {
                let stream = try StreamID(try e.decodeKey(as: String.self))
                guard let record = DeletedAccount(stream: stream, bytes: Array(e.value)) else {
                    throw ReelError.corruptProjection(stream: stream.rawValue, reason: "its deleted-account record is malformed")
                }
                out[stream] = record
                entry = try cursor.next()
            }
        }
        return out
    }

    /// Removes every photo of `stream` (sealed under its key, which is about to be destroyed).
    func removePhotos(of stream: StreamID, _ txn: Transaction) throws {
        let prefix = Array(stream.rawValue.utf8) + [0]
        var keys: [[UInt8]] = []
        try txn.withCursor(photos) { cursor in
            var entry = try cursor.seek(atLeast: prefix)
            while let e = entry, e.key.starts(with: prefix) {
                keys.append(Array(e.key))
                entry = try cursor.next()
            }
        }
        for key in keys { try txn.delete(photos, key) }
    }

    /// Where a photo is kept: `stream ‖ 0x00 ‖` a name keyed by the stream's key (`blobName`),
    /// so the photo's digest is not in the key, nor in freed pages after a deletion.
    static func photoKey(_ stream: StreamID, _ sha256: String, log: EventLog) throws -> [UInt8] {
        Array(stream.rawValue.utf8) + [0] + Array(try log.blobName(Array(sha256.utf8), for: stream, context: photoContext).utf8)
    }

    /// Where earlier versions of Reel kept a photo: its SHA-256 in the clear (still read).
    static func legacyPhotoKey(_ stream: StreamID, _ sha256: String) -> [UInt8] {
        Array(stream.rawValue.utf8) + [0] + Array(sha256.utf8)
    }
}
