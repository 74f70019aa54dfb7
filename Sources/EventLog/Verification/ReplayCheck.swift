import Crypto
import Foundation
import Synchronization

/// The chain checks a replay makes of what it reads (rules 1–8 of "A ledger is intact when" in
/// `Schemas/ledger-layout.md`, all but the indexes), so projections are never built from a broken
/// log.
///
/// They are folded into the lanes' walks rather than made in a second pass. Each lane of
/// `EventLog.replay` walks every envelope of the range anyway, to find its own streams' events, so
/// every lane checks that the keys run on without a gap and that each envelope's position field is
/// its key. The lane that owns an envelope's stream checks the rest: its hash (so each envelope is
/// hashed once, by one lane), its link to the envelope before it (whose hash field that lane has
/// just walked past), its stream version (each lane keeps its own streams' versions) and that
/// time does not go back. An envelope that does not parse has no owner: every lane reports it.
/// Between them the lanes check every rule of every envelope, and the earliest failure is the one
/// thrown (`EventLogError.brokenChain`), as a walk in order would meet it.
///
/// A replay in several calls (a rebuild, to bound its memory) shares one check, which carries the
/// last hash, time and versions from one call to the next; `check(_:)` continues it over events
/// read elsewhere (the tail a rebuild reads in its write transaction), and `finish(head:)` compares
/// where it ended with the stored head. A check that starts after position 1 takes the envelope
/// before as given and each stream's first version as it finds it.
public final class ReplayCheck: @unchecked Sendable {
    /// How many lanes the replay runs (`EventLog.replay` splits the streams into as many partitions).
    public let partitions: Int
    /// Where the next call must start; 0 before the first.
    private var nextPosition: UInt64 = 0
    private var previousHash = [UInt8](repeating: 0, count: 32)
    private var lastTime = Int64.min
    /// Whether the check started at position 1, so that every stream's versions start at 1.
    private var fromStart = false
    /// Each lane's streams and their last versions; lane i touches only element i.
    private let versions: UnsafeMutablePointer<StreamVersionTable>

    public init(partitions: Int) {
        self.partitions = max(1, partitions)
        versions = .allocate(capacity: self.partitions)
        versions.initialize(repeating: StreamVersionTable(), count: self.partitions)
    }

    deinit {
        versions.deinitialize(count: partitions)
        versions.deallocate()
    }

    /// Where a lane starts: a copy taken before the lanes run.
    package struct Start: Sendable {
        let position: UInt64
        let previousHash: [UInt8]
        let lastTime: Int64
        /// `false` when the check starts past the end of the log (no envelope before): then the
        /// walk must find nothing.
        var anchored = true
    }

    /// Where the walk of `positions` starts. The first call anchors the check: at position 1 on
    /// nothing, later on the envelope before (`before`, read by the caller).
    package func start(_ positions: Range<UInt64>, before: () throws -> (hash: [UInt8], time: Int64)?) throws -> Start {
        if nextPosition == 0 {
            nextPosition = positions.lowerBound
            fromStart = positions.lowerBound <= 1
            if !fromStart {
                guard let anchor = try before() else {
                    return Start(position: positions.lowerBound, previousHash: previousHash, lastTime: lastTime, anchored: false)
                }
                previousHash = anchor.hash
                lastTime = anchor.time
            }
        }
        // A call that found the end of the log before its range's end stopped there.
        guard positions.lowerBound <= nextPosition else {
            throw Self.problem(nextPosition, .gap, "the log ends at position \(nextPosition - 1)")
        }
        precondition(positions.lowerBound == nextPosition, "a checked replay must go on where it stopped (\(nextPosition))")
        return Start(position: positions.lowerBound, previousHash: previousHash, lastTime: lastTime)
    }

    /// Records where a call's walk ended (lane 0's, which walked every envelope like the others):
    /// its range's end, or the end of the log when that came first.
    package func end(at position: UInt64, previousHash: [UInt8], lastTime: Int64) {
        nextPosition = position
        self.previousHash = previousHash
        self.lastTime = lastTime
    }

    package static func problem(_ position: UInt64, _ rule: VerificationProblem.Rule, _ detail: String) -> EventLogError {
        .brokenChain(VerificationProblem(position: position, rule: rule, detail: detail))
    }

    /// One lane's walk over one call's range.
    package struct Walk {
        package private(set) var expected: UInt64
        /// The hash field of the envelope before: in the map, or in `anchor` for the first.
        private var previousHash: UnsafeRawBufferPointer
        package private(set) var lastTime: Int64
        private let anchor: UnsafeMutableRawBufferPointer
        private let versions: UnsafeMutablePointer<StreamVersionTable>
        private let fromStart: Bool
        private let anchored: Bool
        /// The last stream this lane owned: its bytes in the map and its slot in the table.
        private var lastStream: (bytes: UnsafeRawBufferPointer, index: Int)?

        package init(_ start: Start, check: ReplayCheck, lane: Int) {
            expected = start.position
            lastTime = start.lastTime
            anchor = .allocate(byteCount: 32, alignment: 8)
            anchor.copyBytes(from: start.previousHash)
            previousHash = UnsafeRawBufferPointer(anchor)
            versions = check.versions + lane
            fromStart = check.fromStart
            anchored = start.anchored
        }

        package func release() { anchor.deallocate() }

        /// The checks every lane makes of the entry under `key`: no gap, and the position field.
        package func checkOrder(key: UInt64) throws {
            guard anchored else { throw ReplayCheck.problem(expected - 1, .gap, "no event at position \(expected - 1)") }
            guard key == expected else {
                throw ReplayCheck.problem(expected, .gap, key > expected ? "the next stored position is \(key)" : "position \(key) is stored out of order")
            }
        }

        package func checkPosition(_ view: EnvelopeView, key: UInt64) throws {
            guard view.position == key else { throw ReplayCheck.problem(key, .positionMismatch, "the envelope says position \(view.position)") }
        }

        /// The checks of the lane that owns the envelope's stream (`streamHash`: FNV-1a of its id).
        package mutating func checkOwned(_ view: EnvelopeView, streamHash: UInt64) throws {
            let key = expected
            let hashMatches = SHA256.hash(data: view.hashedBytes).withUnsafeBytes { $0.sameBytes(as: view.hash) }
            guard hashMatches else { throw ReplayCheck.problem(key, .hashMismatch, "the stored hash is not the SHA-256 of the envelope") }
            guard view.previousHash.sameBytes(as: previousHash) else {
                throw ReplayCheck.problem(key, .brokenLink, "the previous hash is not the hash of position \(key - 1)")
            }
            let stream = view.streamIDBytes
            let index: Int, last: UInt64
            if let lastStream, lastStream.bytes.sameBytes(as: stream) {
                (index, last) = (lastStream.index, versions.pointee.versions[lastStream.index])
            } else {
                (index, last) = versions.pointee.lookup(stream, hash: streamHash)
                lastStream = (stream, index)
            }
            let version = view.streamVersion
            // A check that started later takes a stream's first version as it comes.
            if version != last + 1 && (fromStart || last != 0) {
                throw ReplayCheck.problem(key, .streamVersion, "stream \(String(decoding: stream, as: UTF8.self)) goes from version \(last) to \(version)")
            }
            versions.pointee.set(index, version)
            guard view.recordedAtMicroseconds >= lastTime else { throw ReplayCheck.problem(key, .timeOrder, "recorded-at goes back in time") }
        }

        /// Moves past an envelope every check of this lane passed.
        package mutating func advance(_ view: EnvelopeView) {
            previousHash = view.hash
            lastTime = view.recordedAtMicroseconds
            expected += 1
        }

        package var previousHashBytes: [UInt8] { Array(previousHash) }
    }

    /// Continues the check over events read elsewhere, in position order from where it stopped
    /// (the tail a rebuild reads in its write transaction). Call it before applying them.
    public func check(_ events: [RecordedEvent]) throws {
        for event in events {
            let key = nextPosition == 0 ? 1 : nextPosition
            if nextPosition == 0 {
                nextPosition = 1
                fromStart = true
            }
            let envelope = event.envelope
            guard event.position == key else {
                throw Self.problem(key, .gap, "the next position read is \(event.position)")
            }
            try envelope.bytes.withUnsafeBytes { bytes in
                guard let view = try? EnvelopeView(bytes) else { throw Self.problem(key, .undecodable, "not an envelope") }
                guard Envelope.hashMatches(bytes) else { throw Self.problem(key, .hashMismatch, "the stored hash is not the SHA-256 of the envelope") }
                guard previousHash.withUnsafeBytes({ $0.sameBytes(as: view.previousHash) }) else {
                    throw Self.problem(key, .brokenLink, "the previous hash is not the hash of position \(key - 1)")
                }
                let stream = view.streamIDBytes
                let hash = StreamVersionTable.hash(stream)
                let table = versions + Int(hash % UInt64(partitions))
                let (index, last) = table.pointee.lookup(stream, hash: hash)
                if view.streamVersion != last + 1 && (fromStart || last != 0) {
                    throw Self.problem(key, .streamVersion, "stream \(event.streamID) goes from version \(last) to \(view.streamVersion)")
                }
                table.pointee.set(index, view.streamVersion)
                guard view.recordedAtMicroseconds >= lastTime else { throw Self.problem(key, .timeOrder, "recorded-at goes back in time") }
                previousHash = Array(view.hash)
                lastTime = view.recordedAtMicroseconds
            }
            nextPosition = key + 1
        }
    }

    /// Checks that the replay ended at the stored head: its position, time and hash (rule 8).
    public func finish(head: LogHead?) throws {
        let last = nextPosition <= 1 ? 0 : nextPosition - 1
        switch head {
        case nil where last == 0:
            return
        case nil:
            throw Self.problem(last, .headMismatch, "meta/head is missing")
        case let head? where last == 0:
            throw Self.problem(0, .headMismatch, "meta/head names position \(head.position) but the log is empty")
        case let head?:
            guard head.position == last else {
                throw Self.problem(last, .headMismatch, "meta/head names position \(head.position) but the log ends at \(last)")
            }
            guard head.hash.bytes == previousHash, head.recordedAtMicroseconds == lastTime else {
                throw Self.problem(last, .headMismatch, "meta/head does not name the last event's hash and time")
            }
        }
    }
}
