import EventLog
import Foundation
import Ledger

/// Rebuild: the projections replayed from the whole log, compared and swapped in.
extension AccountService {
    /// Replays the whole log into fresh projections, compares them with the live ones, and (unless
    /// `checkOnly`) swaps them in atomically. A failure leaves the live projections untouched.
    public func rebuildProjections(checkOnly: Bool, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> RebuildReport {
        defer { forgetKeptStates() }
        return try rebuild(checkOnly: checkOnly, compare: true, progress: progress)
    }

    /// Forgets the accounts' states kept (`AccountStates`): the projections were rebuilt, by this
    /// service or by another over the same store (`reel projections rebuild` on a shard map).
    @_spi(Stores) public func forgetKeptStates() {
        states.forgetAll()
    }

    func rebuild(checkOnly: Bool, compare comparing: Bool, progress: ((UInt64, UInt64) -> Void)?) throws -> RebuildReport {
        do {
            return try replayAll(checkOnly: checkOnly, compare: comparing, progress: progress)
        } catch EventLogError.brokenChain(let problem) {
            throw ReelError.rebuildRefused(EventLogError.brokenChain(problem).description)
        }
    }

    /// The rebuild: every event replayed and checked as it is read (`ReplayCheck`: positions,
    /// hashes, links, versions, time, head), so projections are never made from a broken log.
    func replayAll(checkOnly: Bool, compare comparing: Bool, progress: ((UInt64, UInt64) -> Void)?) throws -> RebuildReport {
        let started = ContinuousClock.now
        let total = try log.head()?.position ?? 0
        // The bulk, up to the head seen now (appends go on): split by stream over the lanes, each
        // of which reads, opens, decodes and applies its own accounts' events, so no one thread
        // applies everything. Batches report progress on this thread.
        let parts = (0..<Parallel.maximumLanes).map { _ in PartitionReplay(projector: projector) }
        let check = ReplayCheck(partitions: parts.count)
        var next: UInt64 = 1
        while next <= total {
            let end = min(total + 1, next + 65_536)
            try log.replay(next..<end, verifying: check) { partition, view in try parts[partition].feed(view) }
            next = end
            progress?(end - 1, total)
        }
        for part in parts { try part.flush() }
        var set = ProjectionSet.merging(parts.map(\.set), projector: projector)
        // The tail, the comparison and the swap, in one write transaction. The new slot takes
        // about what the live one does: room for it is made first, so the transaction does not
        // fill the map, roll back and compare everything again.
        if !checkOnly {
            let store = self.store
            let live = try log.read { txn in try store.bytes(of: try store.liveSlot(txn), txn) }
            try log.reserveRoom(bytes: live + live / 4 + (1 << 20))
        }
        // A check only reads: it runs in a read snapshot, so it works on a read-only ledger and
        // beside a change the ledger refuses.
        // `write` is the write transaction that swaps the sets in: none for a check only.
        func finish(_ txn: any EventStoreSnapshot, write: (any EventStoreWrite)?, head: LogHead?, read: (UInt64) throws -> [RecordedEvent]) throws -> RebuildReport {
            let headPosition = head?.position ?? 0
            // The tail appended since the head was read, up to the end of the log: checked on from
            // where the replay stopped, and the end must be the head.
            while true {
                let batch = try read(next)
                guard !batch.isEmpty else { break }
                try check.check(batch)
                for event in batch { try set.apply(event) }
                next += UInt64(batch.count)
            }
            try check.finish(head: head)
            let live = try store.liveSlot(txn)
            // Encoded once: compared with the live states' bytes, then stored.
            let rebuilt = try storable(set)
            let encoded = try store.encoded(rebuilt)
            let drift = comparing ? try compare(rebuilt, encoded: encoded, directory: set.directory, with: live, head: headPosition, txn) : []
            if let txn = write {
                let spare = try store.spareSlot(txn)
                try store.clear(spare, txn)
                try store.save(rebuilt, encoded: encoded, into: spare, txn)
                try txn.table(store.control).put(Array("live".utf8), Array(spare.name.utf8))
                try txn.table(store.control).put(Array("format".utf8), Array(ProjectionStore.format.utf8))
                try store.clear(live, txn)
                // Forgotten before the swap commits, so no command decides on a state read from
                // the slot swapped out; reads that began before it keep nothing (`generation`).
                states.forgetAll()
            }
            let elapsed = (ContinuousClock.now - started).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            return RebuildReport(
                events: headPosition, accounts: set.states.count, checkpoint: headPosition, drift: drift, swapped: !checkOnly,
                seconds: seconds)
        }
        if checkOnly {
            return try log.read { txn in
                try finish(txn, write: nil, head: try txn.head()) { try txn.read(from: $0, maxCount: 16_384) }
            }
        }
        return try log.write(shredding: { _ in }) { w in
            try finish(w, write: w, head: try w.head()) { try w.read(from: $0, maxCount: 16_384) }
        }
    }

    /// The set without what is not stored: deleted accounts, and streams whose key is destroyed.
    func storable(_ set: ProjectionSet) throws -> ProjectionSet {
        var copy = set
        // The replay says which accounts are deleted; a `closed-streams` record alone is no proof.
        let shredded = try log.shreddedStreams()
        for (stream, state) in set.states where state.status == .deleted || shredded.contains(stream) { copy.remove(stream) }
        return copy
    }

    /// What differs between the replayed states (`rebuilt`, encoded as `encoded`) and the live
    /// slot. States whose bytes match are not decoded; only what differs is sorted and described.
    func compare(
        _ rebuilt: ProjectionSet, encoded: [ProjectionStore.EncodedState], directory: [AccountHandle: StreamID],
        with slot: ProjectionStore.Slot, head: UInt64, _ txn: any EventStoreSnapshot
    ) throws -> [RebuildReport.Drift] {
        var drift: [RebuildReport.Drift] = []
        let checkpoint = try store.checkpoint(slot, txn)
        if checkpoint != head {
            drift.append(.init(kind: .checkpoint, subject: "checkpoint", detail: "live projections at position \(checkpoint), log head at \(head)"))
        }
        var expected: [StreamID: ProjectionStore.EncodedState] = [:]
        expected.reserveCapacity(encoded.count)
        for entry in encoded where entry.record != nil { expected[entry.stream] = entry }
        let (live, matching, damaged, strays) = try store.readableStates(slot, txn, expected: expected)
        if strays > 0 {
            drift.append(.init(kind: .unexpected, subject: slot.titles.name, detail: "\(strays) pages of titles have keys that name no stream"))
        }
        let replayed = rebuilt.states
        for stream in damaged {
            drift.append(.init(kind: .differs, subject: name(stream, replayed[stream]), detail: "the live state does not authenticate or decode"))
        }
        func name(_ stream: StreamID, _ state: AccountState?) -> String {
            state?.handle.map { "\($0) (\(stream))" } ?? stream.rawValue
        }
        let unreadable = Set(damaged)
        var suspects = Set(live.keys)
        for stream in replayed.keys where !matching.contains(stream) && !unreadable.contains(stream) { suspects.insert(stream) }
        for stream in suspects.sorted() {
            switch (live[stream], replayed[stream]) {
            case (nil, let replayed?):
                drift.append(.init(kind: .missing, subject: name(stream, replayed), detail: "the live projections lack this account"))
            case (let stored?, nil):
                drift.append(.init(kind: .unexpected, subject: name(stream, stored), detail: "no events in the log make this account"))
            case (let stored?, let replayed?) where stored != replayed:
                drift.append(.init(kind: .differs, subject: name(stream, replayed), detail: Self.difference(stored, replayed)))
            default: break
            }
        }
        let liveHandles = try store.allHandles(slot, txn)
        var rebuiltHandles: [[UInt8]: StreamID] = [:]
        var names: [[UInt8]: String] = [:]
        for (handle, stream) in directory {
            let key = HandleDigest.directoryKey(handle)
            rebuiltHandles[key] = stream
            names[key] = handle.value
        }
        var differing = Set(liveHandles.keys.filter { liveHandles[$0] != rebuiltHandles[$0] })
        for (digest, stream) in rebuiltHandles where liveHandles[digest] != stream { differing.insert(digest) }
        for digest in differing.sorted(by: { names[$0, default: "~"] < names[$1, default: "~"] }) {
            drift.append(
                .init(
                    kind: .handle, subject: names[digest] ?? "handle digest " + ChainHash(bytes: digest).hex.prefix(16),
                    detail: "live: \(liveHandles[digest]?.rawValue ?? "none"), replay: \(rebuiltHandles[digest]?.rawValue ?? "none")"))
        }
        return drift
    }

    static func difference(_ live: AccountState, _ replay: AccountState) -> String {
        var parts: [String] = []
        if live.version != replay.version { parts.append("version \(live.version) live vs \(replay.version) replayed") }
        if live.saved != replay.saved { parts.append("saved list \(live.saved.count) items live vs \(replay.saved.count) replayed") }
        if live.settings != replay.settings { parts.append("settings differ") }
        if live.status != replay.status { parts.append("status \(live.status.rawValue) live vs \(replay.status.rawValue) replayed") }
        if parts.isEmpty { parts.append("metadata differs") }
        return parts.joined(separator: "; ")
    }
}
