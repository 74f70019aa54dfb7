package import Crypto
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One append's events with their payloads sealed under the stream's key, as the writer lays them
/// into envelopes.
///
/// The sealed bytes live in one buffer: for each event its 12-byte nonce, then ciphertext ‖ tag,
/// at an offset known before anything is sealed (from the payload sizes). A small batch is sealed
/// when it is made, on the calling thread. A large one is sealed in chunks by the lanes, and can
/// be written while it is being sealed (`whileSealing`): the writer takes each event once its
/// chunk is done, and seals a chunk itself when no lane has taken it yet. Sealing a large batch
/// then overlaps the serial part of the append (the chain's hashing and the B-tree puts) instead
/// of coming before it.
///
/// A chunk, once taken, is always finished by whoever took it, so a reader never waits on work
/// nobody does. Every lane has returned before `whileSealing` or `sealAll` returns, so no lane
/// outlives the buffers.
package final class SealedBatch: @unchecked Sendable {
    package let stream: StreamID
    package let events: [ProposedEvent]
    private let key: SymmetricKey
    private let bulk: Bool
    /// Where each event's nonce ‖ ciphertext ‖ tag starts in `storage`; one more for the end.
    private let offsets: [Int]
    private let storage: UnsafeMutableRawBufferPointer
    private let chunks: Int
    /// Per chunk: `unsealed`, `sealed` or `failed` (published with release ordering).
    private let states: UnsafeMutablePointer<Atomic<UInt8>>
    /// The error of a `failed` chunk, written before its state.
    private let failures: UnsafeMutableBufferPointer<(any Error)?>
    /// The next chunk nobody has taken.
    private let nextChunk = Atomic<Int>(0)
    /// Set once the writer is done: lanes take no more chunks.
    private let finished = Atomic<Bool>(false)
    /// The writer's own lane, for the chunks it seals itself; and the chunks it knows are sealed
    /// (both touched only by the thread that reads the batch).
    private var readerLane: LaneContext
    private var readThrough = 0
    /// Tests only: the event whose sealing fails (see `failingEventForTesting`).
    private let failingEvent: Int?

    private static let unsealed: UInt8 = 0, sealed: UInt8 = 1, failed: UInt8 = 2
    /// Events per chunk: small enough that the writer starts soon, large enough that taking a chunk
    /// costs nothing next to sealing it.
    static let chunkSize = 32
    /// Batches at least this large are sealed by the lanes; smaller ones when they are made.
    static let laneThreshold = 256

    /// Seals `events` now when the batch is small; a large batch is sealed by `whileSealing` or
    /// `sealAll`.
    package init(_ events: [ProposedEvent], stream: StreamID, key: SymmetricKey) throws {
        self.stream = stream
        self.events = events
        self.key = key
        bulk = events.count >= GCMContext.bulkThreshold
        var offsets = [Int]()
        offsets.reserveCapacity(events.count + 1)
        var end = 0
        for event in events {
            offsets.append(end)
            end += EnvelopeView.nonceSize + event.payload.count + EnvelopeView.tagSize
        }
        offsets.append(end)
        self.offsets = offsets
        storage = .allocate(byteCount: max(end, 1), alignment: 16)
        storage.bindMemory(to: UInt8.self)  // GCMContext writes through UInt8 pointers
        chunks = (events.count + Self.chunkSize - 1) / Self.chunkSize
        states = .allocate(capacity: max(chunks, 1))
        for chunk in 0..<chunks { (states + chunk).initialize(to: Atomic(Self.unsealed)) }
        failures = .allocate(capacity: max(chunks, 1))
        failures.initialize(repeating: nil)
        readerLane = LaneContext(key: key, bulk: bulk)
        failingEvent = Self.failingEventForTesting
        if events.count < Self.laneThreshold || Parallel.maximumLanes == 1 {
            takeChunks(lane: &readerLane)
            try throwFirstFailure()
        }
    }

    deinit {
        storage.deallocate()
        states.deinitialize(count: chunks)
        states.deallocate()
        failures.deinitialize()
        failures.deallocate()
    }

    package var count: Int { events.count }

    /// Whether every chunk is sealed (or failed): nothing is left for the lanes.
    private var allTaken: Bool { nextChunk.load(ordering: .acquiring) >= chunks }

    /// Runs `body` (the writer, on the calling thread) while the lanes seal the batch.
    package func whileSealing<R>(_ body: () throws -> R) throws -> R {
        guard !allTaken else { return try body() }
        var outcome: Result<R, any Error>?
        LanePool.shared.run(lanes: Parallel.maximumLanes) { lane in
            guard lane == 0 else { return sealInLane() }
            outcome = Result { try body() }
            finished.store(true, ordering: .relaxed)
        }
        return try outcome!.get()
    }

    /// Seals the whole batch now, on every lane; throws the first event's error, if any failed.
    package func sealAll() throws {
        if !allTaken {
            LanePool.shared.run(lanes: Parallel.maximumLanes) { _ in sealInLane() }
        }
        try throwFirstFailure()
    }

    private func throwFirstFailure() throws {
        for chunk in 0..<chunks where states[chunk].load(ordering: .acquiring) == Self.failed {
            throw failures[chunk]!
        }
    }

    /// Event `index`'s nonce and sealed payload (ciphertext ‖ tag), once its chunk is sealed.
    /// Only the thread that writes the batch calls this (it keeps unsynchronized state: the chunks
    /// it knows are sealed, and its own lane).
    package func withSealed<R>(_ index: Int, _ body: (_ nonce: UnsafeRawBufferPointer, _ sealed: UnsafeRawBufferPointer) throws -> R) throws -> R {
        let chunk = index / Self.chunkSize
        if chunk >= readThrough {
            try awaitChunk(chunk)
            readThrough = chunk + 1
        }
        let start = offsets[index], end = offsets[index + 1]
        return try body(
            UnsafeRawBufferPointer(rebasing: storage[start..<(start + EnvelopeView.nonceSize)]),
            UnsafeRawBufferPointer(rebasing: storage[(start + EnvelopeView.nonceSize)..<end]))
    }

    /// The size of event `index`'s ciphertext ‖ tag.
    package func sealedCount(_ index: Int) -> Int { offsets[index + 1] - offsets[index] - EnvelopeView.nonceSize }

    /// Waits for `chunk`, sealing untaken chunks meanwhile (up to and including it).
    private func awaitChunk(_ chunk: Int) throws {
        var spins = 0
        while true {
            switch states[chunk].load(ordering: .acquiring) {
            case Self.sealed: return
            case Self.failed: throw failures[chunk]!
            default: break
            }
            if nextChunk.load(ordering: .relaxed) <= chunk {
                let taken = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
                if taken < chunks { seal(chunk: taken, lane: &readerLane) }
                continue
            }
            // A lane is sealing it: a chunk takes tens of microseconds.
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    /// A lane of its own, taking chunks.
    private func sealInLane() {
        var lane = LaneContext(key: key, bulk: bulk)
        takeChunks(lane: &lane)
    }

    /// Takes chunks in order and seals them until none is left or the writer is done.
    private func takeChunks(lane: inout LaneContext) {
        while !finished.load(ordering: .relaxed) {
            let chunk = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
            guard chunk < chunks else { return }
            seal(chunk: chunk, lane: &lane)
        }
    }

    private func seal(chunk: Int, lane: inout LaneContext) {
        do {
            for index in (chunk * Self.chunkSize)..<min(events.count, (chunk + 1) * Self.chunkSize) {
                try seal(index, lane: &lane)
            }
            states[chunk].store(Self.sealed, ordering: .releasing)
        } catch {
            failures[chunk] = error
            states[chunk].store(Self.failed, ordering: .releasing)
        }
    }

    private func seal(_ index: Int, lane: inout LaneContext) throws {
        if index == failingEvent { throw GCMFailure() }
        let event = events[index]
        let start = offsets[index], end = offsets[index + 1]
        let nonce = UnsafeMutableRawBufferPointer(rebasing: storage[start..<(start + EnvelopeView.nonceSize)])
        lane.nonce(into: nonce)
        let header = lane.header(schemaVersion: event.schemaVersion, stream: stream, type: event.type)
        let context = try lane.context()
        try withUnsafeBytes(of: event.id.uuid) { id in
            try header.withUnsafeBytes { header in
                try event.payload.withUnsafeBytes { payload in
                    try context.seal(
                        payload, nonce: UnsafeRawBufferPointer(nonce), aad1: id, aad2: header,
                        into: UnsafeMutableRawBufferPointer(rebasing: storage[(start + EnvelopeView.nonceSize)..<end]))
                }
            }
        }
    }
}

extension SealedBatch {
    /// Tests only: batches made while this is set fail to seal this event (as if the cipher had
    /// failed), to show that nothing of a batch that fails midway is committed.
    @TaskLocal static var failingEventForTesting: Int?
}
