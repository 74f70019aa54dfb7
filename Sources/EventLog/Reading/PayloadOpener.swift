import Crypto

/// Envelope bytes in the memory map, valid while their read transaction lasts.
package struct StoredEnvelope: @unchecked Sendable {
    package let position: UInt64
    package let bytes: UnsafeRawBufferPointer

    package init(position: UInt64, bytes: UnsafeRawBufferPointer) {
        self.position = position
        self.bytes = bytes
    }
}

/// Opens envelopes into recorded events, keeping the last stream's key schedule.
///
/// Unchecked `Sendable`: each lane starts from a copy made before any key is looked up, and the
/// `GCMContext` a lane makes stays on that lane.
package struct PayloadOpener: @unchecked Sendable {
    /// Opens a batch read in one transaction (call it inside that transaction). Opening is CPU work
    /// (AES-GCM), so large batches are spread across the cores.
    package static func openAll(_ stored: [StoredEnvelope], keyStore: any StreamKeys) throws -> [RecordedEvent] {
        // Contiguous slices keep each lane on runs of the same stream: one key lookup per run.
        try Parallel.map(stored, state: PayloadOpener(keyStore: keyStore, count: stored.count)) { opener, envelope in
            try opener.recordedEvent(envelope.bytes, position: envelope.position)
        }
    }

    package let keyStore: any StreamKeys
    private var lastKey: KeyLookup = .none
    private enum KeyLookup { case none, live(GCMContext), destroyed }
    /// This lane's contexts by stream, so interleaved streams do not set their keys up again
    /// for every event; emptied when it reaches `cacheLimit`.
    private var contexts: [StreamID: KeyLookup] = [:]
    private static let cacheLimit = 1_024
    /// The envelope opened last, whose stream id and type the next one may share.
    private var previous: Envelope?

    /// Whether the batch is large enough for libcrypto (see `GCMContext`).
    private let bulk: Bool

    package init(keyStore: any StreamKeys, count: Int) {
        self.keyStore = keyStore
        bulk = count >= GCMContext.bulkThreshold
    }

    /// An envelope stored under another position than its own (rule 3).
    package static func positionMismatch(_ key: UInt64, _ found: UInt64) -> EventLogError {
        .brokenChain(VerificationProblem(position: key, rule: .positionMismatch, detail: "the envelope says position \(found)"))
    }

    mutating func recordedEvent(_ bytes: UnsafeRawBufferPointer, position: UInt64) throws -> RecordedEvent {
        let view: EnvelopeView
        let envelope: Envelope
        do {
            view = try EnvelopeView(bytes)
            envelope = try Envelope(view: view, previous: previous)
        } catch {
            throw EventLogError.corruptEnvelope(position: position, reason: "\(error)")
        }
        guard envelope.position == position else { throw Self.positionMismatch(position, envelope.position) }
        // The same stream as the last envelope: `Envelope` reused its id, so this is a pointer check.
        let sameStream = previous?.streamID == envelope.streamID
        previous = envelope
        if !sameStream {
            if let cached = contexts[envelope.streamID] {
                lastKey = cached
            } else {
                lastKey = try (try keyStore.key(for: envelope.streamID)).map { .live(try GCMContext(key: $0, bulk: bulk)) } ?? .destroyed
                if contexts.count >= Self.cacheLimit { contexts.removeAll(keepingCapacity: true) }
                contexts[envelope.streamID] = lastKey
            }
        }
        guard case .live(let key) = lastKey else { return RecordedEvent(envelope: envelope, payload: nil) }
        do {
            return RecordedEvent(envelope: envelope, payload: try PayloadSealer.open(view, context: key))
        } catch {
            throw EventLogError.corruptEnvelope(position: position, reason: "the payload does not authenticate under the stream's key")
        }
    }
}
