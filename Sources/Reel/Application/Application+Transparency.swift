public import EventLog
import Failures
import Ledger
public import Foundation

/// The ledger as a transparency log (`Schemas/ledger-layout.md`, "The Merkle tree"): signed
/// checkpoints of its tree, inclusion proofs of its envelopes, and their check with nothing but
/// the log's public key.
extension Application {
    /// The latest checkpoint of the ledger's tree, signed with the ledger's key (made on first
    /// use, `LedgerSigningKey`): the note, and the checkpoint it signs. A ledger written before
    /// the tree gets it first (one write transaction that appends nothing). With a shard map,
    /// each shard is a log of its own: `shard` names it. The note carries the cosignatures of
    /// witnesses kept for this very checkpoint (`requestCosignature`), unless not `cosigned`.
    public func checkpoint(shard: String? = nil, building: Bool = true, cosigned: Bool = true) throws -> (note: String, checkpoint: Checkpoint) {
        let log = try transparentLog(shard: shard, building: building)
        let checkpoint = try log.read { snapshot in try Self.checkpoint(snapshot) }
        return (cosigned ? try signedNote(checkpoint, of: log, recording: building) : try signingKey(for: checkpoint.origin, of: log, recording: building).sign(checkpoint.body), checkpoint)
    }

    /// The same, with every witness's latest cosignature kept for the log (`current` when it is
    /// of this checkpoint: those are in the note), read once.
    public func checkpointWithCosignatures(shard: String? = nil) throws -> (note: String, checkpoint: Checkpoint, cosignatures: [Cosignature]) {
        let log = try transparentLog(shard: shard)
        let checkpoint = try log.read { snapshot in try Self.checkpoint(snapshot) }
        let (note, held) = try signedWithCosignatures(checkpoint, of: log, recording: true)
        return (note, checkpoint, held)
    }

    /// `checkpoint` signed with the log's key, and with the cosignatures kept for it.
    func signedNote(_ checkpoint: Checkpoint, of log: any EventStore, recording: Bool = true) throws -> String {
        try signedWithCosignatures(checkpoint, of: log, recording: recording).note
    }

    /// The signed note (the cosignatures of `checkpoint` kept after the log's signature) and
    /// every cosignature kept for the log, read with the key that signs.
    private func signedWithCosignatures(_ checkpoint: Checkpoint, of log: any EventStore, recording: Bool) throws -> (note: String, held: [Cosignature]) {
        let key = try signingKey(for: checkpoint.origin, of: log, recording: recording)
        let held = try heldCosignatures(origin: checkpoint.origin, latest: checkpoint, signedBy: key)
        return (try key.sign(checkpoint.body) + held.filter(\.current).map(\.line).joined(), held)
    }

    /// The tile `path` names (the part after `tile/`, C2SP tlog-tiles): its hashes' bytes, or
    /// `nil` when the path is not a tile's or the tree does not hold all of it yet. A tile, once
    /// there, never changes.
    public func tile(_ path: String, shard: String? = nil) throws -> [UInt8]? {
        guard let address = TileAddress(path: path) else { return nil }
        return try transparentLog(shard: shard, building: false).read { snapshot in
            guard address.isComplete(in: try snapshot.treeFrontier().size) else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32 * address.width)
            for hash in try snapshot.treeHashes(at: address.storedIndexes) { hash.withBytes { bytes.append(contentsOf: $0) } }
            return bytes
        }
    }

    /// The public key a checkpoint of this ledger verifies under (`name+hash+base64`).
    public func checkpointKey(shard: String? = nil) throws -> String {
        let log = try transparentLog(shard: shard)
        let checkpoint = try log.read { snapshot in try Self.checkpoint(snapshot) }
        return try signingKey(for: checkpoint.origin, of: log).verifierKey
    }

    /// The inclusion proof of the event at `position` against the latest checkpoint, made in one
    /// read of the store (C2SP tlog-proof; `InclusionProof.text`).
    public func inclusionProof(position: UInt64, shard: String? = nil) throws -> InclusionProof {
        try inclusionProof(position: position, in: try transparentLog(shard: shard))
    }

    /// The same in `log` (one shard's, for a deletion's receipt).
    func inclusionProof(position: UInt64, in log: any EventStore) throws -> InclusionProof {
        let (checkpoint, envelope, hashes) = try log.read { snapshot in
            let checkpoint = try Self.checkpoint(snapshot)
            guard position >= 1, position <= checkpoint.size,
                let event = try snapshot.read(from: position, maxCount: 1).first, event.position == position
            else { throw Failure(.notFound, "the ledger has no event at position \(position) (it ends at \(checkpoint.size))") }
            let hashes = try TreeProofs.inclusion(of: position - 1, in: checkpoint.size) { try snapshot.treeHashes(at: $0) }
            return (checkpoint, event.envelope.bytes, hashes)
        }
        return InclusionProof(envelope: envelope, index: position - 1, hashes: hashes, checkpoint: try signedNote(checkpoint, of: log))
    }

    /// The same for the event whose id is `eventID`: with a shard map and no `shard`, looked for
    /// on every shard.
    public func inclusionProof(eventID: UUID, shard: String? = nil) throws -> InclusionProof {
        let logs = storeIsShardMap && shard == nil ? try everyLedger().map(\.log) : [try transparentLog(shard: shard)]
        for log in logs {
            guard let position = try log.position(of: eventID) else { continue }
            return try inclusionProof(position: position, in: try building(log))
        }
        throw Failure(.notFound, "the ledger has no event \(eventID.uuidString.lowercased())")
    }

    /// Checks `text` as an inclusion proof under the public key `key`, with nothing else: the
    /// checkpoint's signature, that the envelope is the one at its index, and that its position
    /// is that index's. Returns what it proves; throws a `Failure` (`.data` for text that is not
    /// a proof or a key, `.tampered` for one that does not check) naming the first thing wrong.
    /// With `witnesses` (their keys), the checkpoint must carry a cosignature by each.
    public static func checkProof(_ text: String, key: String, witnesses: [String] = []) throws -> ProofCheck {
        let verifier = try checkpointVerifier(key)
        let proof = try InclusionProof.parse(text).mapError { Failure(.data, "not an inclusion proof: \($0)") }.get()
        let checkpoint = try signedCheckpoint(proof.checkpoint, verifier: verifier, what: "the proof's checkpoint")
        try requireCosignatures(proof.checkpoint, witnesses: witnesses)
        let envelope = proof.envelope.withUnsafeBytes { try? Envelope(bytes: $0) }
        guard let envelope, envelope.position >= 1, envelope.position - 1 == proof.index else {
            throw Failure(.tampered, "the proof's envelope is not the envelope at index \(proof.index) (its position is \(envelope.map { String($0.position) } ?? "unreadable"))")
        }
        guard
            TreeProofs.checkInclusion(
                leaf: TreeHash.leaf(proof.envelope), index: proof.index, size: checkpoint.size, proof: proof.hashes, root: checkpoint.root)
        else {
            throw Failure(.tampered, "the inclusion proof does not lead from the envelope to the checkpoint's tree (\(checkpoint.size) events)")
        }
        return ProofCheck(checkpoint: checkpoint, position: envelope.position, eventID: envelope.eventID, stream: envelope.streamID, type: envelope.type)
    }

    /// The proof that the ledger only grew since `older`, a checkpoint of it signed with its key
    /// (as `checkpoint()` printed it): the consistency proof to the latest checkpoint, checked
    /// before it is given. Throws `.tampered` when it does not hold: the ledger was rewritten or
    /// rolled back since, or `older` is not this ledger's. With a shard map, the log is the shard
    /// `shard` names, else the one whose origin the checkpoint names.
    public func consistency(since older: String, shard: String? = nil) throws -> (proof: ConsistencyProof, older: Checkpoint, newer: Checkpoint) {
        guard storeIsShardMap, shard == nil else { return try consistency(since: older, in: try transparentLog(shard: shard)) }
        let origin = String(older.prefix { $0 != "\n" })
        guard let log = try shardLog(origin: origin) else {
            throw Failure(.tampered, "the older checkpoint is of the log \(SafeText.line(String(origin.prefix(120)))), which is none of the shard map's shards")
        }
        return try consistency(since: older, in: try building(log))
    }

    /// The same in `log`.
    func consistency(since older: String, in log: any EventStore) throws -> (proof: ConsistencyProof, older: Checkpoint, newer: Checkpoint) {
        let (newer, hashes, olderCheckpoint): (Checkpoint, [TreeHash], Checkpoint) = try log.read { snapshot in
            let newer = try Self.checkpoint(snapshot)
            let key = try signingKey(for: newer.origin, of: log)
            let old = try Self.signedCheckpoint(older, verifier: NoteVerifier(key.verifierKey)!, what: "the older checkpoint")
            guard old.size <= newer.size else {
                throw Failure(.tampered, "the older checkpoint has \(old.size) events, the ledger \(newer.size): it was rolled back, or is another copy")
            }
            return (newer, try TreeProofs.consistency(from: old.size, to: newer.size) { try snapshot.treeHashes(at: $0) }, old)
        }
        guard TreeProofs.checkConsistency(old: olderCheckpoint.size, oldRoot: olderCheckpoint.root, size: newer.size, root: newer.root, proof: hashes) else {
            throw Failure(.tampered, "the ledger's first \(olderCheckpoint.size) events are not the ones the older checkpoint signed: the ledger was rewritten since")
        }
        let proof = ConsistencyProof(hashes: hashes, older: older.hasSuffix("\n") ? older : older + "\n", newer: try signedNote(newer, of: log))
        return (proof, olderCheckpoint, newer)
    }

    /// Checks an erasure receipt (`DeletionReport.receipt`): an inclusion proof of an
    /// `account-deleted` event. Under `key` it is checked offline; without one, against the
    /// ledger whose log it names (a shard's, with a map): its key, and a consistency proof from
    /// the receipt's checkpoint to the latest, so the deletion is shown still in the ledger as it
    /// grew since (`laterSize`). Throws `.tampered` when it does not hold.
    public func checkReceipt(_ text: String, key: String?) throws -> (deletion: ProofCheck, laterSize: UInt64?) {
        guard let key else { return try checkReceiptAgainstLedger(text) }
        let check = try Self.checkProof(text, key: key)
        try Self.requireDeletion(check)
        return (check, nil)
    }

    private func checkReceiptAgainstLedger(_ text: String) throws -> (deletion: ProofCheck, laterSize: UInt64?) {
        let proof = try InclusionProof.parse(text).mapError { Failure(.data, "not an erasure receipt: \($0)") }.get()
        let origin = String(proof.checkpoint.prefix { $0 != "\n" })
        guard let log = try shardLog(origin: origin) else {
            throw Failure(.notFound, "the receipt is of the log \(SafeText.line(String(origin.prefix(120)))), which is not this ledger's (give --key to check it offline)")
        }
        let check = try Self.checkProof(text, key: try signingKey(for: origin, of: log).verifierKey)
        try Self.requireDeletion(check)
        let later = try consistency(since: proof.checkpoint, in: log)
        return (check, later.newer.size)
    }

    /// The log (of every ledger: each shard's with a map) whose origin is `origin`, if any.
    private func shardLog(origin: String) throws -> (any EventStore)? {
        for log in try everyLedger().map(\.log) where try log.read({ try $0.checkpoint()?.origin }) == origin { return log }
        return nil
    }

    private static func requireDeletion(_ check: ProofCheck) throws {
        guard check.type == DomainEvent.accountDeletedType else {
            throw Failure(.tampered, "the proof is of a \(check.type) event, not of an account's deletion: it is not an erasure receipt")
        }
    }

    /// Whether `text` is a consistency proof (by its first line), not an inclusion proof.
    public static func isConsistencyProof(_ text: String) -> Bool { text.hasPrefix(ConsistencyProof.header + "\n") }

    /// Checks `text` as a consistency proof under `key`, with nothing else: both checkpoints
    /// signed by the key, of the same log, and the older tree the start of the newer one.
    /// With `witnesses` (their keys), the newer checkpoint must carry a cosignature by each.
    public static func checkConsistency(_ text: String, key: String, witnesses: [String] = []) throws -> (older: Checkpoint, newer: Checkpoint) {
        let verifier = try checkpointVerifier(key)
        let proof = try ConsistencyProof.parse(text).mapError { Failure(.data, "not a consistency proof: \($0)") }.get()
        let older = try signedCheckpoint(proof.older, verifier: verifier, what: "the older checkpoint")
        let newer = try signedCheckpoint(proof.newer, verifier: verifier, what: "the newer checkpoint")
        try requireCosignatures(proof.newer, witnesses: witnesses)
        guard older.size <= newer.size,
            TreeProofs.checkConsistency(old: older.size, oldRoot: older.root, size: newer.size, root: newer.root, proof: proof.hashes)
        else {
            throw Failure(.tampered, "the proof does not show the tree of \(older.size) events to be the start of the tree of \(newer.size)")
        }
        return (older, newer)
    }

    /// Checks that `note` carries a cosignature by each of `witnesses` (their keys) that verifies.
    static func requireCosignatures(_ note: String, witnesses: [String]) throws {
        for key in witnesses {
            guard let witness = NoteVerifier(key), witness.kind == .cosignature else {
                throw Failure(.usage, "the witness key is not a cosigner's key (name+hash+base64 of type 0x04, as `reel audit witness-key` prints it)")
            }
            guard witness.cosignature(on: note.hasSuffix("\n") ? note : note + "\n") != nil else {
                throw Failure(.tampered, "the checkpoint carries no cosignature by the witness \(witness.name) that verifies")
            }
        }
    }

    /// The verifier of the public key `key`; a usage failure for text that is not one.
    static func checkpointVerifier(_ key: String) throws -> NoteVerifier {
        guard let verifier = NoteVerifier(key), verifier.kind == .signature else {
            throw Failure(.usage, "the key is not a checkpoint key (name+hash+base64, as `reel audit key` prints it)")
        }
        return verifier
    }

    /// The checkpoint `note` signs under `verifier`'s key, of its log; else a `.tampered` failure
    /// naming `what`.
    static func signedCheckpoint(_ note: String, verifier: NoteVerifier, what: String) throws -> Checkpoint {
        guard let body = verifier.open(note.hasSuffix("\n") ? note : note + "\n") else {
            throw Failure(.tampered, "\(what) is not signed by the key \(verifier.name)")
        }
        guard let checkpoint = Checkpoint(body: body), checkpoint.origin == verifier.name else {
            throw Failure(.tampered, "\(what) is not a checkpoint of the log \(verifier.name)")
        }
        return checkpoint
    }

    /// The log of the one ledger, or of the shard `shard` names: a shard map's shards are logs
    /// of their own, proved one by one. A ledger written before the tree gets it from a write
    /// that appends nothing, when `building` (the commands); the service's open routes never
    /// write: they answer for the tree as it is.
    func transparentLog(shard: String?, building: Bool = true) throws -> any EventStore {
        let log: any EventStore
        if let shard {
            guard let ledger = try router.shardLedger(named: shard) else {
                throw Failure(.usage, "a shard was named, but the store is one log, not a shard map")
            }
            log = ledger.log
        } else if storeIsShardMap {
            throw Failure(.usage, "a shard map is one log per shard: name one of its shards (\(try router.shardNames().joined(separator: ", ")))")
        } else {
            log = try existingLog()
        }
        return building ? try self.building(log) : log
    }

    /// `log`, its tree first brought up to its head when a Reel without the tree wrote last.
    private func building(_ log: any EventStore) throws -> any EventStore {
        let (size, head) = try log.read { (try $0.treeFrontier().size, try $0.head()?.position ?? 0) }
        if size < head { try log.write { _ in } }
        return log
    }

    /// The checkpoint of the tree `snapshot` holds; not found while it has no leaf.
    private static func checkpoint(_ snapshot: some EventStoreSnapshot) throws -> Checkpoint {
        guard let checkpoint = try snapshot.checkpoint() else {
            throw Failure(.notFound, "the ledger has no events yet: there is nothing to sign")
        }
        return checkpoint
    }

    /// The key the checkpoints of `log` (named `origin`) are signed with. Once one is recorded in
    /// the log (`CheckpointKeyRecord`), only that one: its file missing from the keyring
    /// directory, or holding another key, is said (never replaced by a new key, which would
    /// disown every checkpoint, proof and receipt signed). Else it is made when missing and, when
    /// `recording` (not on the service's open routes, which never write), recorded.
    func signingKey(for origin: String, of log: any EventStore, recording: Bool = true) throws -> NoteKey {
        let directory = configuration.keyringDirectory
        if let recorded = try CheckpointKeyRecord.recorded(in: log) {
            let path = LedgerSigningKey.path(for: origin, in: directory)
            guard let key = try LedgerSigningKey.existing(for: origin, in: directory) else {
                throw Failure(
                    .unavailable,
                    "the ledger's checkpoints are signed with \(recorded), but its signing key is not at \(path): restore it from the keyring's backup (a new key would disown every checkpoint, proof and receipt signed)")
            }
            guard key.verifierKey == recorded else {
                throw Failure(.tampered, "the signing key at \(path) is not the one the ledger's checkpoints are signed with (\(recorded)): restore that one")
            }
            return key
        }
        let key = try LedgerSigningKey.key(for: origin, in: directory)
        if recording { try CheckpointKeyRecord.record(key.verifierKey, in: log) }
        return key
    }
}
