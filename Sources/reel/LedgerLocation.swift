import EventLog
import Foundation

/// Opens the ledger of a data directory, refusing to invent one where a command only reads.
enum LedgerLocation {
    static func openExisting(_ directory: String) throws -> EventLog {
        guard FileManager.default.fileExists(atPath: directory + "/ledger/data.mdb") else {
            throw ReelFailure(message: "no ledger in \(directory) (set --data-dir or REEL_DATA_DIR)", status: .notFound)
        }
        return try EventLog.open(at: directory)
    }
}
