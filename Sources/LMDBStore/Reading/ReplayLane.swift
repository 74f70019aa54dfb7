@_spi(Stores) import EventLog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One lane of a replay: turns stored envelopes into `EventView`s. It keeps what consecutive
/// events share — the stream (compared as bytes, so a run of one stream builds its id and looks
/// its key up once), a cache of key schedules by stream, and one plaintext buffer it opens every
/// payload into.
struct ReplayLane: @unchecked Sendable {
    private let keyStore: KeyStore
    private let bulk: Bool
    private enum KeyLookup { case live(GCMContext), destroyed }
    /// The last stream: its bytes in the map (valid for the read transaction), id and key.
    private var last: (bytes: UnsafeRawBufferPointer, stream: StreamID, key: KeyLookup)?
    /// Key schedules by stream, so interleaved streams do not set their keys up for every event;
    /// emptied when it reaches `cacheLimit`.
    private var contexts: [StreamID: KeyLookup] = [:]
    private static let cacheLimit = 1_024
    /// Where payloads are opened; each lane's copy grows on its own.
    private var plaintext: [UInt8] = []

    init(keyStore: KeyStore, count: Int) {
        self.keyStore = keyStore
        bulk = count >= GCMContext.bulkThreshold
    }

    /// The last stream's bytes and the partition they fall in (see `partition`).
    private var lastPartition: (bytes: UnsafeRawBufferPointer, partition: Int, hash: UInt64)?

    /// Which of `count` partitions the envelope's stream falls in: a hash (FNV-1a,
    /// `StreamVersionTable.hash`) of its bytes, the same in every lane and every run; and the hash.
    mutating func partition(of view: EnvelopeView, count: Int) -> (partition: Int, hash: UInt64) {
        let bytes = view.streamIDBytes
        if let last = lastPartition, last.bytes.count == bytes.count, memcmp(last.bytes.baseAddress!, bytes.baseAddress!, bytes.count) == 0 {
            return (last.partition, last.hash)
        }
        let hash = StreamVersionTable.hash(bytes)
        let partition = Int(hash % UInt64(count))
        lastPartition = (bytes, partition, hash)
        return (partition, hash)
    }

    /// Opens the envelope read as `view` and passes its event's view to `body`.
    mutating func view<R>(_ view: EnvelopeView, position: UInt64, _ body: (EventView) throws -> R) throws -> R {
        let typeBytes = view.typeBytes
        guard Self.isUTF8(typeBytes) else { throw EventLogError.corruptEnvelope(position: position, reason: "event type is not valid UTF-8") }
        let (stream, key) = try streamAndKey(view, position: position)
        func make(_ payload: UnsafeRawBufferPointer?) -> EventView {
            EventView(
                position: view.position, streamID: stream, streamVersion: view.streamVersion,
                recordedAtMicroseconds: view.recordedAtMicroseconds, firstRecordedAtMicroseconds: view.firstRecordedAtMicroseconds,
                schemaVersion: view.schemaVersion, typeBytes: typeBytes,
                payload: payload, eventIDBytes: view.eventIDBytes)
        }
        guard case .live(let context) = key else { return try body(make(nil)) }
        let count = view.sealedLength - EnvelopeView.tagSize
        if plaintext.count < max(count, 1) { plaintext = [UInt8](repeating: 0, count: max(count, 1, plaintext.count * 2)) }
        return try plaintext.withUnsafeMutableBytes { buffer in
            guard context.open(
                view.sealedPayload, nonce: view.nonce, aad1: view.eventIDBytes,
                aad2: view.slice(73, 4 + view.streamLength + view.typeLength), into: buffer)
            else {
                throw EventLogError.corruptEnvelope(position: position, reason: "the payload does not authenticate under the stream's key")
            }
            return try body(make(UnsafeRawBufferPointer(rebasing: buffer[..<count])))
        }
    }

    private mutating func streamAndKey(_ view: EnvelopeView, position: UInt64) throws -> (StreamID, KeyLookup) {
        let bytes = view.streamIDBytes
        if let last, last.bytes.count == bytes.count, memcmp(last.bytes.baseAddress!, bytes.baseAddress!, bytes.count) == 0 {
            return (last.stream, last.key)
        }
        guard let stream = view.streamID else { throw EventLogError.corruptEnvelope(position: position, reason: "stream id is not valid UTF-8") }
        let key: KeyLookup
        if let cached = contexts[stream] {
            key = cached
        } else {
            key = try (try keyStore.key(for: stream)).map { .live(try GCMContext(key: $0, bulk: bulk)) } ?? .destroyed
            if contexts.count >= Self.cacheLimit { contexts.removeAll(keepingCapacity: true) }
            contexts[stream] = key
        }
        last = (bytes, stream, key)
        return (stream, key)
    }

    /// ASCII is checked byte by byte; anything else by the standard library.
    private static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte >= 0x80 {
            return String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) != nil
        }
        return true
    }
}
