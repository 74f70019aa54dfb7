@_spi(Stores) public import EventLog
import LMDB

/// A write transaction lent to the caller, for appends and its own writes together.
extension EventLog {
    /// Runs `body` in one write transaction of the ledger and commits it durably: appends made
    /// through it and the caller's own writes (projections) land together or not at all.
    ///
    /// Every such transaction first finishes the key destruction of streams closed earlier whose
    /// keys are not destroyed yet (a deletion a crash interrupted), on the chain's authority
    /// only. Keys whose destruction `body` prepared (`LedgerWrite.destroyKeysOnCommit`) are
    /// destroyed once the transaction is committed; `step` names the points passed.
    public func write<T>(shredding step: (ShreddingStep) -> Void = { _ in }, _ body: (LedgerWrite) throws -> T) throws -> T {
        var appended = false
        var replacement: KeyStoreReplacement?
        // A replacement prepared by a transaction that did not commit is removed unused.
        defer { replacement?.abandon() }
        let value: T
        do {
            // Errors of the caller's own pass through as they are; the log's become EventLogError.
            value = try environment.write { txn in
                replacement?.abandon()  // a body run again (the map grew) prepares again
                replacement = nil
                let write = try LedgerWrite(log: self, transaction: txn)
                try finishPendingShredding(write, step: step)
                let value = try body(write)
                // An append that failed midway left part of its batch: never commit that.
                if let broken = write.brokenBy { throw broken }
                try writer.writeHead(write.currentHead, txn, leaves: write.leaves)
                appended = write.appended
                replacement = write.replacement
                return value
            }
        } catch let error as LMDBError {
            throw EventLogError.storage(error)
        }
        if appended { signal.notify() }
        if let prepared = replacement {
            replacement = nil
            step(.committed)
            try wrapped { try prepared.install(reached: step) }
            // The ledger records the keys as destroyed. Should this fail (no space), the next
            // change of the ledger records it: the keys are destroyed either way.
            do {
                try environment.write { txn in
                    for (stream, time) in prepared.destroyed {
                        try txn.put(databases.closedStreams, stream.rawValue, ClosedStream(stream: stream, keyDestroyed: true, closedAtMicroseconds: time).bytes)
                    }
                    try recordKeyGeneration(prepared.generation, txn)
                }
                step(.recorded)
            } catch {}
        }
        return value
    }
}
