import Catalog
public import EventLog
import Failures
import Files
public import Foundation

/// Witnesses (C2SP tlog-witness, tlog-cosignature): this Reel as a witness that cosigns other
/// logs' checkpoints once they are shown consistent with the last it cosigned, and as a log that
/// asks a witness to cosign its own, keeping the cosignatures it gets.
extension Application {
    // MARK: - As a witness

    /// This Reel's witness key, the public half (`name+hash+base64(0x04 ‖ key)`): what a log
    /// checks cosignatures with. Made on first use, beside the keyrings.
    public func witnessKey() throws -> String {
        try witnessSigningKey().verifierKey
    }

    /// The witness's key, made on first use; once this witness has cosigned (its records are
    /// there), a key file gone missing is said, never replaced (a new key is another witness).
    private func witnessSigningKey() throws -> NoteKey {
        let directory = configuration.keyringDirectory
        if let key = try LedgerSigningKey.existingWitnessKey(in: directory) { return key }
        let records = WitnessRecords(directory: configuration.dataDirectory + "/witness")
        guard !records.holdsAny else {
            throw Failure(
                .unavailable,
                "this witness has cosigned before (its records are in \(records.directory)), but its key is not at \(LedgerSigningKey.witnessKeyPath(in: directory)): restore it from the keyring's backup (a new key would be another witness)")
        }
        return try LedgerSigningKey.witnessKey(in: directory)
    }

    /// Answers a log's `add-checkpoint` request (`text`) for the logs `logs` lists: the
    /// cosignature line of its checkpoint, once its signature verifies under the log's key and it
    /// is consistent with the checkpoint of that log cosigned before (the old size the request
    /// names must be that one's, and its proof must lead from it). The check and the record of the
    /// new checkpoint are one step under a lock, and the record is on disk before the answer.
    /// Throws a `WitnessRefusal` saying which of the protocol's refusals applies.
    public func addCheckpoint(_ text: String, logs: WitnessedLogs, now: Date = Date()) throws -> String {
        let request = try AddCheckpointRequest.parse(text).mapError { WitnessRefusal(.malformed, "not an add-checkpoint request: \($0)") }.get()
        let origin = String(request.checkpoint.prefix { $0 != "\n" })
        guard let verifiers = logs.verifiers[origin] else {
            throw WitnessRefusal(.unknownLog, "this witness does not witness the log \(SafeText.line(String(origin.prefix(120))))")
        }
        // A line of a trusted key's that does not verify makes the note malformed (403), whatever
        // else verifies (C2SP tlog-witness).
        var opened: (body: String, line: String)?
        for verifier in verifiers {
            switch verifier.strictlyOpen(request.checkpoint) {
            case .malformed: throw WitnessRefusal(.unverified, "a signature on the checkpoint by a key this witness trusts for \(origin) does not verify")
            case .opened(let body, let line): opened = opened ?? (body, line)
            case .unsigned: continue
            }
        }
        guard let (body, logLine) = opened else {
            throw WitnessRefusal(.unverified, "the checkpoint is not signed by a key this witness trusts for \(origin)")
        }
        guard let checkpoint = Checkpoint(body: body) else { throw WitnessRefusal(.malformed, "the note signed is not a checkpoint") }
        guard request.oldSize <= checkpoint.size else {
            throw WitnessRefusal(.malformed, "the old size \(request.oldSize) is larger than the checkpoint's \(checkpoint.size)")
        }
        guard checkpoint.size > 0 || checkpoint.root == .empty else {
            throw WitnessRefusal(.inconsistent, "a checkpoint of no events must have the empty tree's hash")
        }
        let key = try witnessSigningKey()
        let records = WitnessRecords(directory: configuration.dataDirectory + "/witness")
        return try records.locked {
            let latest = try records.latest(of: origin)
            let (size, root) = (latest?.size ?? 0, latest?.root ?? .empty)
            guard request.oldSize == size else {
                throw WitnessRefusal(.conflict(latestSize: size), "this witness last cosigned \(origin) at \(size) events, not \(request.oldSize)")
            }
            let consistent: Bool
            if size == 0 {
                consistent = request.proof.isEmpty
            } else if size == checkpoint.size {
                consistent = request.proof.isEmpty && root == checkpoint.root
            } else {
                consistent = TreeProofs.checkConsistency(old: size, oldRoot: root, size: checkpoint.size, root: checkpoint.root, proof: request.proof)
            }
            guard consistent else {
                throw WitnessRefusal(.inconsistent, "the checkpoint of \(checkpoint.size) events is not consistent with the one of \(size) this witness cosigned")
            }
            let line = try key.cosign(body, time: UInt64(max(1, now.timeIntervalSince1970)))
            // Kept: the body, the log's signature verified, the cosignature; nothing else the
            // request carried. The same checkpoint again is cosigned without a new record.
            if latest != checkpoint { try records.record(body + "\n" + logLine + "\n" + line, of: origin) }
            return line
        }
    }

    /// The latest checkpoint this witness cosigned of the log whose origin's SHA-256 is
    /// `originHash` (lowercase hex), with its cosignature and the log's signature; `nil` for none.
    public func witnessedCheckpoint(originHash: String) throws -> String? {
        guard let note = try WitnessRecords(directory: configuration.dataDirectory + "/witness").note(originHash: originHash) else { return nil }
        // Served only as a note: a record damaged on disk is said, never passed on.
        guard let (body, _) = NoteVerifier.split(note), Checkpoint(body: body) != nil else {
            throw Failure(.storage, "the witness's record of that log is damaged: its operator must restore it")
        }
        return note
    }

    // MARK: - As a log

    /// Asks the witness at `prefix` (its submission prefix) to cosign the latest checkpoint of the
    /// ledger (of the shard `shard` names, with a map), and keeps the cosignature when it verifies
    /// under `witnessKey`. The size the witness last cosigned is sent as the old size (0 the first
    /// time), with the consistency proof from it; when the witness says another (its 409), that
    /// one is sent instead.
    public func requestCosignature(from prefix: String, witnessKey: String, shard: String? = nil) async throws -> Cosignature {
        guard let witness = NoteVerifier(witnessKey), witness.kind == .cosignature else {
            throw Failure(.usage, "the witness key is not a cosigner's key (name+hash+base64 of type 0x04, as `reel audit witness-key` prints it)")
        }
        guard let url = URLComponents(string: prefix), ["http", "https"].contains(url.scheme ?? ""), let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil, url.user == nil, url.password == nil, (url.port ?? 80) >= 1, (url.port ?? 80) <= 65_535
        else {
            throw Failure(
                .usage,
                "the witness is not an http(s) URL with a port from 1 to 65535 and no query or credentials (its submission prefix): \(SafeText.line(String(prefix.prefix(200))))")
        }
        let (note, checkpoint) = try self.checkpoint(shard: shard, cosigned: false)
        let transport = WitnessTransport()
        do {
            let cosignature = try await requestCosignature(note, checkpoint, witness: witness, host: host, prefix: prefix, shard: shard, transport: transport)
            await transport.shutdown()
            return cosignature
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// The exchange with the witness `requestCosignature` starts.
    private func requestCosignature(
        _ note: String, _ checkpoint: Checkpoint, witness: NoteVerifier, host: String, prefix: String, shard: String?, transport: WitnessTransport
    ) async throws -> Cosignature {
        let held = try heldCosignatures(origin: checkpoint.origin).first { $0.witness == witness.name }?.size ?? 0
        var oldSize = held <= checkpoint.size ? held : 0
        for _ in 0..<3 {
            let proof = oldSize == 0 ? [] : try consistencyPath(from: oldSize, to: checkpoint.size, shard: shard)
            let request = AddCheckpointRequest(oldSize: oldSize, proof: proof, checkpoint: note)
            let answer: TransportResponse
            do {
                answer = try await transport.addCheckpoint(request.text, prefix: prefix)
            } catch let failure as TransportFailure {
                if case .other(let why) = failure { throw Failure(.unavailable, "the witness at \(host) did not answer as a witness: \(why)") }
                throw Failure(.unavailable, "the witness at \(host) cannot be reached: \(failure.reason)")
            }
            let text = String(decoding: answer.body, as: UTF8.self)
            if answer.status == 409, let size = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)), size != oldSize {
                guard size <= checkpoint.size else {
                    throw Failure(
                        .tampered,
                        "the witness cosigned \(checkpoint.origin) at \(size) events, more than the ledger holds (\(checkpoint.size)): it was shown another copy of this log, or this one was rolled back")
                }
                oldSize = size
                continue
            }
            guard answer.status == 200 else {
                let why: String? =
                    switch answer.status {
                    case 403: "it does not trust this ledger's key"
                    case 404: "it does not witness this ledger"
                    case 422: "the ledger is not consistent with what it cosigned before"
                    case 300..<400: "it redirects elsewhere; give the URL it answers at"
                    default: nil
                    }
                let said = text.isEmpty ? "" : ": " + SafeText.line(String(text.prefix(300)))
                throw Failure(
                    answer.status == 422 ? .tampered : .unavailable,
                    "the witness refused the checkpoint (HTTP \(answer.status)\(why.map { ", " + $0 } ?? ""))\(said)")
            }
            let lines = text.split(separator: "\n").filter { $0.hasPrefix("\u{2014} ") }.map { String($0) + "\n" }
            guard let line = lines.first(where: { witness.cosignature(on: note + $0) != nil }), let time = witness.cosignature(on: note + line) else {
                throw Failure(.tampered, "the witness answered, but with no cosignature by \(witness.name) that verifies")
            }
            // C2SP tlog-cosignature lets a verifier refuse a time in the future: an hour of clock skew is allowed.
            guard Double(time) <= Date().timeIntervalSince1970 + 3_600 else {
                throw Failure(.tampered, "the witness's cosignature is dated \(time) seconds after the Epoch, in the future: its clock is wrong, or it is not a witness to keep")
            }
            try keepCosigned(note + line, origin: checkpoint.origin, witness: witness.name)
            return Cosignature(witness: witness.name, origin: checkpoint.origin, size: checkpoint.size, time: time, current: true, line: line)
        }
        throw Failure(.temporary, "the witness's last cosigned size kept changing; try again")
    }

    /// The consistency path of the ledger's tree (the shard's) between two sizes.
    private func consistencyPath(from old: UInt64, to size: UInt64, shard: String?) throws -> [TreeHash] {
        try transparentLog(shard: shard, building: false).read { snapshot in
            try TreeProofs.consistency(from: old, to: size) { try snapshot.treeHashes(at: $0) }
        }
    }

    /// The cosignatures kept for the log `origin`, one per witness (the latest each gave), each
    /// said `current` when it is of `latest`.
    public func heldCosignatures(origin: String, latest: Checkpoint? = nil) throws -> [Cosignature] {
        guard let key = try LedgerSigningKey.existing(for: origin, in: configuration.keyringDirectory) else { return [] }
        return try heldCosignatures(origin: origin, latest: latest, signedBy: key)
    }

    /// The same, taking only what `key` (the ledger's own) signed: a file changed on disk is left out.
    func heldCosignatures(origin: String, latest: Checkpoint?, signedBy key: NoteKey) throws -> [Cosignature] {
        let directory = cosignedDirectory(origin)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory), let log = NoteVerifier(key.verifierKey) else { return [] }
        return names.sorted().compactMap { name -> Cosignature? in
            guard name.hasSuffix(".note"), let data = try? BoundedFile.read(directory + "/" + name, limit: 64 << 10) else { return nil }
            let note = String(decoding: data, as: UTF8.self)
            guard log.open(note) != nil, let (body, lines) = NoteVerifier.split(note), let checkpoint = Checkpoint(body: body), checkpoint.origin == origin,
                let line = lines.last
            else { return nil }
            guard let (witness, time) = NoteVerifier.cosignatureStamp(line) else { return nil }
            return Cosignature(witness: witness, origin: origin, size: checkpoint.size, time: time, current: checkpoint == latest, line: line + "\n")
        }
    }

    private func keepCosigned(_ note: String, origin: String, witness: String) throws {
        let directory = cosignedDirectory(origin)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Named by the witness name's hash: any name, of any length, is a file of its own.
        try OutputFile.write(Array(note.utf8), to: directory + "/" + WitnessRecords.hash(witness) + ".note")
    }

    private func cosignedDirectory(_ origin: String) -> String {
        configuration.dataDirectory + "/cosigned/" + origin.replacingOccurrences(of: "/", with: "-")
    }
}
