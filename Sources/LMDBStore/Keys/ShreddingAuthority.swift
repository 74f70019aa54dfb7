@_spi(Stores) import EventLog
import Crypto
import LMDB

/// The rule that guards key destruction: a stream's key may be destroyed only on the authority
/// of the event that closed it, on the chain. A `closed-streams` record alone is not enough (any
/// LMDB client can write one): the stream's last event must be of the closing type (the
/// application's `account-deleted`), its envelope must hash to its stored hash, and every
/// envelope from it to the head must link and hash, ending at `meta/head`. The walk is from the
/// closing event on, so it costs the events appended since (a few, for a deletion just made).
///
/// The chain's hashes are keyless: anyone who can write `ledger/` can append a well-formed,
/// well-linked envelope. So while the key is live, the closing event's payload must also open
/// under it (AES-GCM with the event's id, type and stream as associated data): only a holder of
/// the stream's key can have sealed it.
struct ShreddingAuthority {
    let databases: LedgerDatabases
    let closingType: String

    /// Throws `unauthorizedShredding` unless the chain closes `stream` as described above; `key`
    /// is the stream's key while it is live (`nil` once destroyed: nothing is left to destroy).
    func check(_ stream: StreamID, key: SymmetricKey?, _ txn: Transaction) throws {
        func refuse(_ reason: String) -> EventLogError { .unauthorizedShredding(stream: stream, reason: reason) }
        let version = try databases.version(of: stream, txn)
        guard version > 0 else { throw refuse("the stream has no events") }
        guard let position = try txn.get(databases.streamIndex, LedgerDatabases.streamIndexKey(stream, version)) else {
            throw refuse("the stream index has no entry for its last version \(version)")
        }
        guard let head = try databases.head(txn), head.position >= position else { throw refuse("the log's head is missing or before position \(position)") }
        var previous: [UInt8]? = nil
        for at in position...head.position {
            let hash: [UInt8] = try txn.withValue(databases.events, at) { bytes in
                guard let bytes, let view = try? EnvelopeView(bytes), view.position == at else {
                    throw refuse("the envelope at position \(at) is missing or unreadable")
                }
                if at == position {
                    guard view.streamIDBytes.sameBytes(asUTF8Of: stream.rawValue), view.streamVersion == version,
                        view.typeBytes.sameBytes(asUTF8Of: closingType) || StreamClosing.isMovedOut(view.typeBytes)
                    else {
                        throw refuse("its last event (position \(at)) is not an '\(closingType)' or '\(StreamClosing.movedOutType)' event of the stream")
                    }
                    if let key {
                        let opened = try? PayloadSealer.open(view, context: try GCMContext(key: key, bulk: false))
                        guard opened != nil else {
                            throw refuse("its '\(closingType)' event (position \(at)) was not sealed under the stream's key")
                        }
                    }
                }
                if let previous, !previous.withUnsafeBytes({ view.previousHash.sameBytes(as: $0) }) {
                    throw refuse("the chain breaks at position \(at)")
                }
                let stored = Array(view.hash)
                let computed = Array(SHA256.hash(data: view.hashedBytes))
                guard stored == computed else { throw refuse("the envelope at position \(at) does not hash to its stored hash") }
                return stored
            }
            previous = hash
        }
        guard previous == head.hash.bytes else { throw refuse("the chain does not end at meta/head") }
    }
}
