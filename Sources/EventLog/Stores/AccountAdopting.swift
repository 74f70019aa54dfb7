/// A write transaction of a store that takes accounts moved from another store of the same
/// ledger's shards (`reel store move`): it lays a moved stream's envelopes on its own chain.
@_spi(Stores) public protocol AccountAdopting: EventStoreWrite {
    /// Lays one account's envelopes from another shard on this store's chain: `envelopes` are its
    /// whole stream there (versions 1 through n), laid anew as format 2 (`MovedEnvelopes`), with
    /// the stream's `key` and, after them, `arrival` (`account-moved-in`) sealed under it. Returns
    /// the laid envelopes and the arrival as recorded.
    func adopt(_ envelopes: [Envelope], key: [UInt8], arrival: ProposedEvent) throws -> (laid: [Envelope], arrival: RecordedEvent)

    /// Whether `stream` is closed, as this transaction sees it.
    func isClosed(_ stream: StreamID) throws -> Bool
}
