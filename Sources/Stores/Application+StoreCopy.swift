@_spi(Stores) import EventLog
import LMDBStore
import Failures
import Foundation
import PostgresStore
@_spi(Stores) public import Reel

extension Application {
    /// Copies the whole ledger of `source` into `target` (each a data directory or a PostgreSQL
    /// store URL): the source is verified first; the envelopes go over as they are, in batches of
    /// `batch` (one transaction each), with the keys of their streams (nothing a deletion
    /// destroyed); the target is verified last and must end at the source's head hash. A target
    /// that holds the start of the same ledger (a copy interrupted, even by a kill) is continued
    /// from its head; a target holding anything else is refused with nothing changed.
    /// Projections are not copied: the target builds its own when first opened.
    public func copyLedger(
        from source: String, to target: String, batch: Int = 5_000, progress: ((_ copied: UInt64, _ total: UInt64) -> Void)? = nil
    ) throws -> StoreCopyReport {
        let (from, fromName) = try copyStore(source, making: false)
        let (to, toName) = try copyStore(target, making: true)
        guard fromName != toName else { throw Failure(.usage, "the source and the target are the same store (\(fromName))") }
        let verified = try from.verify(expectedHead: nil, progress: nil)
        if let problem = verified.problem { throw Failure(.tampered, "the source \(fromName) does not verify (\(problem)); nothing was copied") }
        let end = verified.head?.position ?? 0
        let start = try to.head()
        let resumedAt = start?.position ?? 0
        if let start {
            let same = start.position <= end ? try from.read(from: start.position, maxCount: 1).first?.envelope.hash == start.hash : false
            guard same else {
                throw Failure(
                    .usage,
                    "the target \(toName) holds another ledger (its position \(start.position) is not the source's); copy into an empty store; nothing was changed")
            }
        }
        // A copy stopped between a batch's events and its keys (the LMDB store puts keys after):
        // the streams the target has without keys get them now.
        var known = Set(try to.streams().map(\.stream))
        var missing: [StreamID: CopiedKey] = [:]
        for stream in known where try to.copiedKey(of: stream) == nil { missing[stream] = try sourceKey(from, stream, fromName) }
        try to.importKeys(missing)

        let closed = try from.closedStreams()
        var next = resumedAt + 1
        progress?(resumedAt, end)
        while next <= end {
            let envelopes = try from.read(from: next, maxCount: Int(min(UInt64(max(1, batch)), end - next + 1))).map(\.envelope)
            guard !envelopes.isEmpty else { break }
            var keys: [StreamID: CopiedKey] = [:]
            for stream in Set(envelopes.map(\.streamID)) where !known.contains(stream) {
                keys[stream] = try sourceKey(from, stream, fromName)
                known.insert(stream)
            }
            // Nothing else may write to the target meanwhile: a head that moved makes it another ledger.
            let moved = { (now: UInt64) in
                Failure(
                    .usage,
                    "the target \(toName) was written by another process during the copy (its head moved from \(next - 1) to \(now)); it holds another ledger now: copy into a new store, with nothing else writing to it")
            }
            let now = try to.head()?.position ?? 0
            guard now == next - 1 else { throw moved(now) }
            do {
                try to.importEnvelopes(envelopes, keys: keys, closed: closed, closingType: DomainEvent.accountDeletedType)
            } catch EventLogError.brokenChain(let problem) where problem.rule == .gap {
                throw moved(try to.head()?.position ?? 0)
            }
            next += UInt64(envelopes.count)
            progress?(next - 1, end)
        }
        try copyKeptTables(from, to)
        let copy = try to.verify(expectedHead: verified.head?.hash, progress: nil)
        if let problem = copy.problem { throw Failure(.tampered, "the copy in \(toName) does not verify (\(problem))") }
        return StoreCopyReport(
            from: fromName, to: toName, resumedAt: resumedAt, copied: end - resumedAt, events: copy.eventsChecked, headPosition: end,
            headHash: copy.head?.hash)
    }

    /// Copies the tables the events cannot make again (`ProjectionStore.keptBesideTheLog`),
    /// entry by entry, a page of them per transaction (sealed bytes as they are: the keys went
    /// with the events). Done again by a resumed copy, it puts the same entries.
    private func copyKeptTables(_ from: any LedgerCopying, _ to: any LedgerCopying) throws {
        for name in AccountService.tablesKeptBesideTheLog {
            let source = try from.projectionTable(named: name), target = try to.projectionTable(named: name)
            var after: [UInt8]? = nil
            while true {
                var page: [(key: [UInt8], value: [UInt8])] = []
                try from.read { snapshot in
                    try snapshot.table(source).forEach(from: after.map { $0 + [0] } ?? []) { key, value in
                        page.append((Array(key), Array(value)))
                        return page.count < 256
                    }
                }
                guard !page.isEmpty else { break }
                try to.write { w in for entry in page { try w.table(target).put(entry.key, entry.value) } }
                after = page.last!.key
            }
        }
    }

    private func sourceKey(_ store: any LedgerCopying, _ stream: StreamID, _ name: String) throws -> CopiedKey {
        guard let key = try store.copiedKey(of: stream) else { throw Failure(.tampered, "the source \(name) has no key for stream \(stream)") }
        return key
    }

    /// A store to copy from or into, and how it is named in messages (a URL without its password).
    private func copyStore(_ name: String, making: Bool) throws -> (any LedgerCopying, String) {
        if PostgresLocation.isURL(name) {
            let location = try stores.storeLocation(name)
            return (try stores.openPostgres(location), location.description)
        }
        guard !name.isEmpty else { throw Failure(.usage, "a store is a data directory or a postgres:// URL, not an empty name") }
        if ShardMap.isShardMap(name), FileManager.default.fileExists(atPath: name) {
            throw Failure(.usage, "\(name) is a shard map: copy from or into one shard's postgres:// URL (Schemas/postgres-shards.md)")
        }
        try Self.checkDataDirectory(name)
        if !making, !EventLog.exists(in: name) { throw ReelError.noLedger(name) }
        return (try EventLog.open(at: name, configuration: configuration.logConfiguration), name)
    }
}
