import EventLog
import Failures
import Foundation

extension Application {
    /// Checks the whole ledger: every event's hash chain, seal and index entry, and the head
    /// against `expectedHead` when given (`progress`: events checked, total).
    public func verifyLedger(expectedHead: ChainHash? = nil, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> VerificationReport {
        try existingLog().verify(expectedHead: expectedHead, progress: progress)
    }

    /// Replays the whole log into fresh projections, reports drift from the live ones and swaps
    /// them in (with `checkOnly`, compares only).
    public func rebuildProjections(checkOnly: Bool, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> RebuildReport {
        try requiredLedger().rebuildProjections(checkOnly: checkOnly, progress: progress)
    }

    /// Writes a compacted copy of the ledger and its keys into `target` (new or empty), then
    /// opens the copy and verifies it; a copy that does not verify is an integrity failure.
    public func backup(to target: String) throws -> VerificationReport {
        guard configuration.storeURL == nil, let log = try existingLog() as? EventLog else {
            throw Failure(.usage, "reel backup copies the LMDB store; back a PostgreSQL store up with the server's own tools (pg_dump, pg_basebackup)")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) {
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? ["?"]
            guard isDirectory.boolValue, contents.isEmpty else {
                throw Failure(.usage, "\(target) exists and is not an empty directory")
            }
        }
        try log.backup(to: target)
        let report = try EventLog.open(at: target, configuration: configuration.logConfiguration).verify()
        guard report.isIntact else {
            throw Failure(.tampered, "the copy in \(target) does not verify: \(report.problem!)")
        }
        return report
    }
}

extension Application {
    /// Every envelope of the log, in order, as the documented JSON form (`Schemas/envelope.schema.json`).
    public func envelopes() throws -> [EnvelopeJSON] {
        let log = try existingLog()
        if let lmdb = log as? EventLog { return try lmdb.envelopes(from: 1, maxCount: Int.max).map(EnvelopeJSON.init) }
        return try log.read(from: 1, maxCount: .max).map { EnvelopeJSON($0.envelope) }
    }
}
