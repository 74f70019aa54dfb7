@_spi(Stores) public import EventLog
import LMDB

/// Key destruction (shredding) of closed streams, on the chain's authority, finished after crashes.
extension EventLog {
    /// Closed streams whose key destruction is not recorded as done.
    func pendingShredding(_ txn: Transaction) throws -> [ClosedStream] {
        try txn.withCursor(databases.closedStreams) { cursor in
            var out: [ClosedStream] = []
            var entry = try cursor.first()
            while let e = entry {
                if e.value.first != 1 {
                    let stream = StreamID(unchecked: try e.decodeKey(as: String.self))
                    guard let closed = ClosedStream(stream: stream, bytes: Array(e.value)) else {
                        throw EventLogError.unauthorizedShredding(stream: stream, reason: "its closed-streams record is malformed")
                    }
                    out.append(closed)
                }
                entry = try cursor.next()
            }
            return out
        }
    }

    /// Records the key store's generation in the ledger (`meta/keys-generation`), never lowering it.
    func recordKeyGeneration(_ generation: UInt64, _ txn: Transaction) throws {
        guard generation > (try recordedKeyGeneration(txn)) else { return }
        try txn.put(databases.meta, "keys-generation", KeyStore.bytes(generation))
    }

    func recordedKeyGeneration(_ txn: Transaction) throws -> UInt64 {
        let bytes = try txn.get(databases.meta, "keys-generation") ?? []
        return bytes.count == 8 ? bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } : 0
    }

    /// A `keys/` older than the ledger's last replacement of it (restored alone from a backup)
    /// holds keys destroyed since: they are destroyed again, on the chain's authority, before
    /// anything reads them (a read-only data directory cannot, and is refused).
    func destroyResurrectedKeys(readOnly: Bool) throws {
        let recorded = try environment.read { txn in try recordedKeyGeneration(txn) }
        let generation = try keyStore.generation()
        guard generation < recorded else { return }
        let closed = try environment.read { txn in try closedStreams(txn) }
        let resurrected = try closed.filter { if case .live = try keyStore.state(of: $0.stream) { return true } else { return false } }
        if resurrected.isEmpty { return }
        if readOnly {
            throw EventLogError.foreignKeyStore(
                path: keyStore.directory,
                reason: "it is older than the ledger (generation \(generation), the ledger's \(recorded)) and holds the keys of \(resurrected.count) deleted accounts")
        }
        try environment.write { txn in
            for closed in resurrected {
                let pending = ClosedStream(stream: closed.stream, keyDestroyed: false, closedAtMicroseconds: closed.closedAtMicroseconds)
                try txn.put(databases.closedStreams, closed.stream.rawValue, pending.bytes)
            }
        }
        try completeShredding()
    }

    func hasPendingShredding() throws -> Bool {
        try environment.read { txn in try !pendingShredding(txn).isEmpty }
    }

    /// Finishes, inside `write`, what `pendingShredding` lists: each on the chain's authority
    /// (else nothing is destroyed and the transaction fails), the keys destroyed by a
    /// replacement of the key store, and the ledger's records set to done.
    func finishPendingShredding(_ write: LedgerWrite, step: (ShreddingStep) -> Void) throws {
        let txn = write.transaction
        let pending = try pendingShredding(txn)
        guard !pending.isEmpty else { return }
        var live: [(stream: StreamID, atMicroseconds: Int64)] = []
        for closed in pending {
            let key = try keyStore.key(for: closed.stream)
            try authority.check(closed.stream, key: key, txn)
            if key != nil { live.append((closed.stream, closed.closedAtMicroseconds)) }
        }
        if !live.isEmpty {
            let replacement = try KeyStoreReplacement(keyStore, destroying: live)
            step(.keyStorePrepared)
            try replacement.install(reached: step)
            try recordKeyGeneration(replacement.generation, txn)
        }
        // A replacement that stopped after its swap left the old generation in the keyring: the
        // destroyed keys are gone only once it is.
        try keyStore.dropRetiredGenerations()
        for closed in pending {
            let done = ClosedStream(stream: closed.stream, keyDestroyed: true, closedAtMicroseconds: closed.closedAtMicroseconds)
            try txn.put(databases.closedStreams, closed.stream.rawValue, done.bytes)
        }
    }

    /// Makes the stream's key now (durably, in `keys/`), so a later write transaction need not.
    public func prepareKey(for stream: StreamID) throws {
        _ = try wrapped { try sealingKey(for: stream) }
    }

    /// Every stream whose key is destroyed.
    public func shreddedStreams() throws -> Set<StreamID> {
        try wrapped { try keyStore.destroyedStreams() }
    }

    /// Every closed stream, in stream id order.
    func closedStreams(_ txn: Transaction) throws -> [ClosedStream] {
        try txn.withCursor(databases.closedStreams) { cursor in
            var out: [ClosedStream] = []
            var entry = try cursor.first()
            while let e = entry {
                let stream = StreamID(unchecked: try e.decodeKey(as: String.self))
                guard let closed = ClosedStream(stream: stream, bytes: Array(e.value)) else {
                    throw EventLogError.corruptEnvelope(position: 0, reason: "closed-streams/\(stream) is malformed")
                }
                out.append(closed)
                entry = try cursor.next()
            }
            return out
        }
    }

    /// Destroys the keys of closed streams whose destruction a crash interrupted (see `write`):
    /// on the chain's authority, by a replacement of the key store, recorded as done. Returns the
    /// streams it found pending; `step` names each step as it is reached.
    @discardableResult
    public func completeShredding(step: (ShreddingStep) -> Void = { _ in }) throws -> [StreamID] {
        try wrapped {
            let pending = try environment.read { txn in try pendingShredding(txn) }
            guard !pending.isEmpty else { return [] }
            try write(shredding: step) { _ in }
            step(.recorded)
            return pending.map(\.stream)
        }
    }

    /// How many keys the key store holds, live and destroyed.
    public func keyCounts() throws -> (live: Int, destroyed: Int) {
        try wrapped { try keyStore.counts() }
    }
}
