import EventLog
import Failures

/// The public key a ledger's checkpoints are signed with, recorded in the ledger itself (its
/// `transparency` projection table, key `checkpoint-key`) when the key is first used: a signing
/// key lost from the keyring directory is then said, never silently replaced by a new one (which
/// would disown every checkpoint, proof and receipt signed before). Public: no secret is in the
/// ledger.
enum CheckpointKeyRecord {
    static let table = "transparency"
    static let key = Array("checkpoint-key".utf8)

    /// The key recorded in `log`, if any (none either on a read-only ledger never recorded).
    static func recorded(in log: any EventStore) throws -> String? {
        guard let table = try? log.projectionTable(named: table) else { return nil }
        return try log.read { try $0.table(table).get(key) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Records `verifierKey` in `log` unless a key is recorded already (another process may have
    /// recorded one meanwhile: the first stands, and is returned).
    @discardableResult
    static func record(_ verifierKey: String, in log: any EventStore) throws -> String {
        let table = try log.projectionTable(named: table)
        return try log.write { w in
            if let found = try w.table(table).get(key) { return String(decoding: found, as: UTF8.self) }
            try w.table(table).put(key, Array(verifierKey.utf8))
            return verifierKey
        }
    }
}
