@_spi(Stores) public import Reel
import Foundation
import LMDBStore

extension Application {
    /// Writes a compacted copy of the ledger and its keys into `target` (new or empty), then
    /// opens the copy and verifies it; a copy that does not verify is an integrity failure.
    public func backup(to target: String) throws -> VerificationReport {
        guard configuration.storeURL == nil, let log = try router.existingLog() as? EventLog else {
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
