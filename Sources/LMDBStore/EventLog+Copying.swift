@_spi(Stores) public import EventLog
import Crypto
import LMDB

/// The LMDB store's side of copying a ledger between stores (`LedgerCopying`).
@_spi(Stores) extension EventLog: LedgerCopying {
    public func copiedKey(of stream: StreamID) throws -> CopiedKey? {
        switch try wrapped({ try keyStore.state(of: stream) }) {
        case .live(let key)?: .live(key.withUnsafeBytes { Array($0) })
        case .destroyed(let time)?: .destroyed(atMicroseconds: time)
        case nil: nil
        }
    }

    public func closedStreams() throws -> [StreamID: Int64] {
        try wrapped {
            try environment.read { txn in
                Dictionary(try closedStreams(txn).map { ($0.stream, $0.closedAtMicroseconds) }, uniquingKeysWith: { a, _ in a })
            }
        }
    }

    public func importKeys(_ keys: [StreamID: CopiedKey]) throws {
        guard !keys.isEmpty else { return }
        try wrapped { try keyStore.adopt(keys) }
    }

    /// The events first (one write transaction), then the keys: a key store holding keys beside an
    /// empty ledger is refused when opened (`missingLedger`), so a copy killed between the two
    /// must leave events without keys, which the next run of the copy gives them (`importKeys`).
    public func importEnvelopes(_ envelopes: [Envelope], keys: [StreamID: CopiedKey], closed: [StreamID: Int64], closingType: String) throws {
        guard !envelopes.isEmpty else { return try importKeys(keys) }
        try wrapped {
            try environment.write { txn in
                let head = try databases.head(txn)
                var versions: [StreamID: UInt64] = [:]
                for stream in Set(envelopes.map(\.streamID)) { versions[stream] = try databases.version(of: stream, txn) }
                let last = try checkImport(envelopes, after: head, versions: versions)
                for envelope in envelopes {
                    try txn.put(databases.events, envelope.position, envelope.bytes, flags: .append)
                    try txn.put(databases.streamIndex, LedgerDatabases.streamIndexKey(envelope.streamID, envelope.streamVersion), envelope.position)
                    try txn.put(databases.eventIDs, envelope.eventID.bytes, envelope.position, flags: .noOverwrite)
                    if StreamClosing.mayClose(envelope.type, closingType: closingType), let time = closed[envelope.streamID], envelope.streamVersion == last[envelope.streamID] {
                        let destroyed: Bool
                        if case .destroyed? = keys[envelope.streamID] { destroyed = true } else { destroyed = false }
                        try txn.put(
                            databases.closedStreams, envelope.streamID.rawValue,
                            ClosedStream(stream: envelope.streamID, keyDestroyed: destroyed, closedAtMicroseconds: time).bytes)
                    }
                }
                for (stream, version) in last { try txn.put(databases.streams, stream.rawValue, version) }
                try writer.writeHead(LogHead(after: envelopes.last!), txn)
            }
        }
        signal.notify()
        try importKeys(keys)
    }
}
