import Foundation

/// A stream's key as a copy of the ledger moves it between stores.
@_spi(Stores) public enum CopiedKey: Sendable, Equatable {
    /// The 32 bytes of a live key.
    case live([UInt8])
    /// Destroyed (the stream shredded) at this time.
    case destroyed(atMicroseconds: Int64)
}

/// What copying a whole ledger between stores needs of each (`reel store copy`): the envelopes go
/// over as they are, bytes, positions and hashes unchanged, so the copy's chain is the original's
/// and its head hash the same; the keys go with them, so the copy opens what the original opens
/// and nothing a deletion destroyed.
@_spi(Stores) public protocol LedgerCopying: EventStore {
    /// The stream's key as this store holds it; `nil` when it has none.
    func copiedKey(of stream: StreamID) throws -> CopiedKey?

    /// When each closed stream was closed.
    func closedStreams() throws -> [StreamID: Int64]

    /// Puts the keys of streams that have none here (a key held already is kept).
    func importKeys(_ keys: [StreamID: CopiedKey]) throws

    /// Appends envelopes another store made, as they are, in one transaction: the first must
    /// follow this log's head (its position and previous hash), each must hash and link, and each
    /// stream's versions run on (else `brokenChain`, nothing stored). `keys` are put for the
    /// streams among them that have none here (in the same transaction where the store can, else
    /// after it); a stream of `closed` whose closing event is among them is closed with it.
    func importEnvelopes(_ envelopes: [Envelope], keys: [StreamID: CopiedKey], closed: [StreamID: Int64], closingType: String) throws
}

@_spi(Stores) extension LedgerCopying {
    /// Checks that `envelopes` follow `head` and one another, hash, and run each stream's versions
    /// on from `versions` (what the store holds); returns the streams' last versions. Every store's
    /// `importEnvelopes` starts with it.
    public func checkImport(_ envelopes: [Envelope], after head: LogHead?, versions: [StreamID: UInt64]) throws -> [StreamID: UInt64] {
        var position = head?.position ?? 0
        var previous = head?.hash ?? .zero
        var time = head?.recordedAtMicroseconds ?? .min
        var versions = versions
        for envelope in envelopes {
            position += 1
            guard envelope.position == position else {
                throw ReplayCheck.problem(position, .gap, "the copy's next envelope is position \(envelope.position), this log's next is \(position)")
            }
            guard envelope.bytes.withUnsafeBytes({ Envelope.hashMatches($0) }) else {
                throw ReplayCheck.problem(position, .hashMismatch, "the stored hash is not the SHA-256 of the envelope")
            }
            guard envelope.previousHash == previous else {
                throw ReplayCheck.problem(position, .brokenLink, "the envelope does not link to this log's head")
            }
            let last = versions[envelope.streamID] ?? 0
            guard envelope.streamVersion == last + 1 else {
                throw ReplayCheck.problem(position, .streamVersion, "stream \(envelope.streamID) goes from version \(last) to \(envelope.streamVersion)")
            }
            guard envelope.recordedAtMicroseconds >= time else { throw ReplayCheck.problem(position, .timeOrder, "recorded-at goes back in time") }
            versions[envelope.streamID] = envelope.streamVersion
            previous = envelope.hash
            time = envelope.recordedAtMicroseconds
        }
        return versions
    }
}
