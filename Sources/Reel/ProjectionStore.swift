import EventLog
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
        /// Stream id → sealed state.
        let states: ProjectionTableName
        /// Handle digest → stream id.
        let handles: ProjectionTableName
        /// `checkpoint` → the last position applied (big-endian).
        let meta: ProjectionTableName
    }

    /// `projections/format`: handles in the directory are digests since version 2.
    static let format = "reel-projections/2"
    /// The tables kept beside the log that its events cannot make again: photos (events name them
    /// only) and what stays of deleted accounts (their handles are digests of what was sealed). A
    /// copy of the ledger carries them; the other projections are made again from the events.
    static let keptBesideTheLog = ["photos", "deleted-accounts"]
    static let stateContext = "account-state"
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
        guard let plain = opened else { return nil }  // shredded: the state is gone with the key
        do {
            return try AccountStateCodec.decode(plain)
        } catch {
            throw ReelError.corruptProjection(stream: stream.rawValue, reason: "the stored state does not decode")
        }
    }

    /// Every stored state of a slot (shredded ones left out); a damaged one is an error.
    func allStates(_ slot: Slot, _ txn: any EventStoreSnapshot) throws -> [StreamID: AccountState] {
        let (states, _, damaged) = try readableStates(slot, txn)
        if let first = damaged.first {
            throw ReelError.corruptProjection(stream: first.rawValue, reason: "the stored state does not authenticate or decode")
        }
        return states
    }

    /// Every stored state of a slot that can be read, and the streams whose state cannot. A state
    /// whose plaintext is byte for byte its entry in `expected` (what a rebuild would store) is
    /// only listed in `matching`, not decoded: comparing bytes is what makes a rebuild's check cheap.
    func readableStates(_ slot: Slot, _ txn: any EventStoreSnapshot, expected: [StreamID: [UInt8]] = [:]) throws
        -> (states: [StreamID: AccountState], matching: Set<StreamID>, damaged: [StreamID])
    {
        /// A stored state's sealed bytes (copied out of the table: its bytes last only for the call).
        struct Stored: Sendable {
            let stream: StreamID
            let sealed: [UInt8]
            let expected: [UInt8]?
        }
        enum Outcome: Sendable { case state(AccountState), matching, shredded, damaged }
        var stored: [Stored] = []
        try txn.table(slot.states).forEach { key, value in
            let stream = try StreamID(try Self.string(key, in: slot.states))
            stored.append(Stored(stream: stream, sealed: Array(value), expected: expected.isEmpty ? nil : expected[stream]))
            return true
        }
        // Opening (AES-GCM) and decoding each state is independent work: on all cores.
        let log = self.log
        let outcomes = try Parallel.map(stored, state: ()) { _, s -> Outcome in
            do {
                let opened = try s.sealed.withUnsafeBytes { try log.openBlob($0, for: s.stream, context: Self.stateContext) }
                guard let plain = opened else { return .shredded }
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
    func bytes(of slot: Slot, _ txn: any EventStoreSnapshot) throws -> Int {
        try txn.table(slot.states).storedBytes() + txn.table(slot.handles).storedBytes() + txn.table(slot.meta).storedBytes()
    }

    /// Empties a slot (before a rebuild fills it, and after it is swapped out).
    func clear(_ slot: Slot, _ txn: any EventStoreWrite) throws {
        try txn.table(slot.states).removeAll()
        try txn.table(slot.handles).removeAll()
        try txn.table(slot.meta).removeAll()
    }

    /// The handle directory: handle digest → stream id.
    func allHandles(_ slot: Slot, _ txn: any EventStoreSnapshot) throws -> [[UInt8]: StreamID] {
        var out: [[UInt8]: StreamID] = [:]
        try txn.table(slot.handles).forEach { key, value in
            out[Array(key)] = try StreamID(try Self.string(value, in: slot.handles))
            return true
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
    func save(_ set: ProjectionSet, into slot: Slot, _ txn: any EventStoreWrite) throws {
        try save(set, encoded: try encoded(set), into: slot, txn)
    }

    /// The same with the states encoded already (`encoded(set)`).
    func save(_ set: ProjectionSet, encoded: [EncodedState], into slot: Slot, _ txn: any EventStoreWrite) throws {
        // Sealing each state is independent work: on all cores, then stored in order.
        let log = self.log
        let sealed = try Parallel.map(encoded, state: ()) { _, entry -> [UInt8]? in
            try entry.bytes.map { try log.sealBlob($0, for: entry.stream, context: Self.stateContext) }
        }
        let states = txn.table(slot.states)
        for (entry, blob) in zip(encoded, sealed) {
            if let blob {
                try states.put(Array(entry.stream.rawValue.utf8), blob)
            } else {
                try states.delete(Array(entry.stream.rawValue.utf8))
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
            let stream = try StreamID(try Self.string(key, in: deletedAccounts))
            guard let record = DeletedAccount(stream: stream, bytes: Array(value)) else {
                throw ReelError.corruptProjection(stream: stream.rawValue, reason: "its deleted-account record is malformed")
            }
            out[stream] = record
            return true
        }
        return out
    }

    /// Removes every photo of `stream` (sealed under its key, which is about to be destroyed).
    func removePhotos(of stream: StreamID, _ txn: any EventStoreWrite) throws {
        let prefix = Array(stream.rawValue.utf8) + [0]
        let photos = txn.table(self.photos)
        var keys: [[UInt8]] = []
        try photos.forEach(prefix: prefix) { key, _ in keys.append(Array(key)) }
        for key in keys { try photos.delete(key) }
    }

    /// Where a photo is kept: `stream ‖ 0x00 ‖` a name keyed by the stream's key (`blobName`),
    /// so the photo's digest is not in the key, nor in freed pages after a deletion.
    static func photoKey(_ stream: StreamID, _ sha256: String, log: any EventStore) throws -> [UInt8] {
        Array(stream.rawValue.utf8) + [0] + Array(try log.blobName(Array(sha256.utf8), for: stream, context: photoContext).utf8)
    }

    /// Where earlier versions of Reel kept a photo: its SHA-256 in the clear (still read).
    static func legacyPhotoKey(_ stream: StreamID, _ sha256: String) -> [UInt8] {
        Array(stream.rawValue.utf8) + [0] + Array(sha256.utf8)
    }
}
