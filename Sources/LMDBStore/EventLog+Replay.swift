@_spi(Stores) public import EventLog
import LMDB
import Synchronization

/// Replay: the log split by stream over lanes, checked as it is read.
extension EventLog {
    /// Replays the events at `positions` over `partitions` lanes split by stream: each event goes
    /// to its stream's lane, as `body(partition, view)`, so one lane sees all of a stream's events
    /// in order and lanes share nothing (each can keep its own projections). Each lane reads in a
    /// snapshot of its own; stored events never change, so all see the same bytes. What is read is
    /// checked as it is read (see `ReplayCheck`; the envelope before `positions` is taken as given):
    /// a broken chain is `EventLogError.brokenChain`. When lanes fail, the error at the earliest
    /// position is thrown; `body`'s errors as it threw them.
    public func replay(
        _ positions: Range<UInt64>, partitions: Int, _ body: @Sendable (_ partition: Int, EventView) throws -> Void
    ) throws {
        try replay(positions, verifying: ReplayCheck(partitions: partitions), body)
    }

    /// The same as one call of a replay in several (a rebuild's batches, in position order), whose
    /// `check` carries what the chain checks need from one call to the next; it sets the number of
    /// partitions. After the last call, `check.finish(head:)` compares the end with the head.
    public func replay(
        _ positions: Range<UInt64>, verifying check: ReplayCheck, _ body: @Sendable (_ partition: Int, EventView) throws -> Void
    ) throws {
        guard !positions.isEmpty else { return }
        let lanes = check.partitions
        let start = try wrapped { try check.start(positions) { try anchor(before: positions.lowerBound) } }
        let failures = Mutex<[(position: UInt64, error: any Error)]>([])
        let ended = Mutex<(position: UInt64, hash: [UInt8], time: Int64)?>(nil)
        LanePool.shared.run(lanes: lanes) { lane in
            var reader = ReplayLane(keyStore: keyStore, count: Int(clamping: positions.count))
            var walk = ReplayCheck.Walk(start, check: check, lane: lane)
            defer { walk.release() }
            // Where a failure is: the event being read, or (when the cursor fails moving on) the
            // one after the last read, as a walk in order would meet it.
            var at = positions.lowerBound
            do {
                try environment.read { txn in
                    try txn.withCursor(databases.events) { cursor in
                        var entry = try cursor.seek(atLeast: positions.lowerBound)
                        while let e = entry {
                            guard e.key.count == 8 else {
                                throw ReplayCheck.problem(walk.expected, .undecodable, "a key of \(e.key.count) bytes is not a position")
                            }
                            at = UInt64(bigEndian: e.key.loadUnaligned(as: UInt64.self))
                            try walk.checkOrder(key: at)
                            guard at < positions.upperBound else { break }
                            let view: EnvelopeView
                            do throws(EnvelopeDecodingError) { view = try EnvelopeView(e.value) } catch { throw ReplayCheck.problem(at, .undecodable, error.reason) }
                            try walk.checkPosition(view, key: at)
                            let (partition, streamHash) = reader.partition(of: view, count: lanes)
                            if partition == lane {
                                try walk.checkOwned(view, streamHash: streamHash)
                                try reader.view(view, position: at) { event in
                                    do { try body(lane, event) } catch { throw Passed(error: error) }
                                }
                            }
                            walk.advance(view)
                            at += 1
                            entry = try cursor.next()
                        }
                        if lane == 0 { ended.withLock { $0 = (walk.expected, walk.previousHashBytes, walk.lastTime) } }
                    }
                }
            } catch {
                if case EventLogError.brokenChain(let problem) = error { at = problem.position }
                failures.withLock { $0.append((at, error)) }
            }
        }
        if let first = failures.withLock({ $0.min { $0.position < $1.position } }) {
            if let passed = first.error as? Passed { throw passed.error }
            throw EventLogError.wrap(first.error)
        }
        guard let ended = ended.withLock({ $0 }) else { return }
        check.end(at: ended.position, previousHash: ended.hash, lastTime: ended.time)
    }

    /// The hash and time of the envelope at `position` - 1, where a replay from `position` starts.
    func anchor(before position: UInt64) throws -> (hash: [UInt8], time: Int64)? {
        guard position > 1 else { return nil }
        return try environment.read { txn in
            try txn.withValue(databases.events, position - 1) { bytes in
                guard let bytes, let view = try? EnvelopeView(bytes) else { return nil }
                return (Array(view.hash), view.recordedAtMicroseconds)
            }
        }
    }
}

/// An error of a replay's `transform`, which reaches the caller as it was thrown.
private struct Passed: Error { let error: any Error }
