/// Envelopes a store read as values (PostgreSQL rows), kept in one buffer in position order: what
/// it opens into recorded events, or walks to verify, with the LMDB store's own code.
@_spi(Stores) public struct EnvelopeBatch: Sendable {
    /// Each envelope's position as the store keys it (its row's `position`).
    public private(set) var positions: [UInt64] = []
    private var storage: [UInt8] = []
    private var starts: [Int] = [0]

    public init() {}

    public var count: Int { positions.count }
    public var isEmpty: Bool { positions.isEmpty }

    /// Adds the envelope stored under `position`.
    public mutating func append(position: UInt64, bytes: some Collection<UInt8>) {
        positions.append(position)
        storage.append(contentsOf: bytes)
        starts.append(storage.count)
    }

    /// The envelopes as recorded events, payloads opened with `keys` (`nil` for a destroyed key);
    /// a large batch on every core. Throws `corruptEnvelope` or `brokenChain` (an envelope under
    /// another position than its own) as the LMDB store's reads do.
    public func opened(keys: any StreamKeys) throws -> [RecordedEvent] {
        try storage.withUnsafeBytes { raw in
            let stored = positions.indices.map {
                StoredEnvelope(position: positions[$0], bytes: UnsafeRawBufferPointer(rebasing: raw[starts[$0]..<starts[$0 + 1]]))
            }
            return try PayloadOpener.openAll(stored, keyStore: keys)
        }
    }

    /// Calls `body` with each envelope's position and bytes, in order.
    public func forEach(_ body: (_ position: UInt64, _ bytes: UnsafeRawBufferPointer) throws -> Void) rethrows {
        try storage.withUnsafeBytes { raw in
            for index in positions.indices {
                try body(positions[index], UnsafeRawBufferPointer(rebasing: raw[starts[index]..<starts[index + 1]]))
            }
        }
    }
}

extension EventView {
    /// Lends `body` a view of `event` (its payload as recorded), valid during the call: how a store
    /// that reads recorded events replays them.
    @_spi(Stores) public static func of<R>(_ event: RecordedEvent, _ body: (EventView) throws -> R) rethrows -> R {
        try event.envelope.bytes.withUnsafeBytes { bytes in
            let streamLength = Int(bytes[75])
            let typeLength = Int(bytes[76 + streamLength])
            let typeBytes = UnsafeRawBufferPointer(rebasing: bytes[(77 + streamLength)..<(77 + streamLength + typeLength)])
            let id = UnsafeRawBufferPointer(rebasing: bytes[41..<57])
            func make(_ payload: UnsafeRawBufferPointer?) -> EventView {
                EventView(
                    position: event.position, streamID: event.streamID, streamVersion: event.streamVersion,
                    recordedAtMicroseconds: event.envelope.recordedAtMicroseconds,
                    firstRecordedAtMicroseconds: event.envelope.firstRecordedAtMicroseconds, schemaVersion: event.schemaVersion, typeBytes: typeBytes,
                    payload: payload, eventIDBytes: id)
            }
            guard let payload = event.payload else { return try body(make(nil)) }
            return try payload.withUnsafeBytes { try body(make($0)) }
        }
    }

    /// The lane a replay over `partitions` lanes gives `stream` (a hash of its bytes): the same in
    /// every store, run and process.
    @_spi(Stores) public static func partition(of stream: StreamID, partitions: Int) -> Int {
        var name = stream.rawValue
        return name.withUTF8 { Int(StreamVersionTable.hash(UnsafeRawBufferPointer($0)) % UInt64(max(1, partitions))) }
    }
}

extension RecordedEvent {
    /// A recorded event of `envelope` and its opened payload (`nil` once shredded).
    @_spi(Stores) public init(stored envelope: Envelope, payload: [UInt8]?) {
        self.init(envelope: envelope, payload: payload)
    }
}
