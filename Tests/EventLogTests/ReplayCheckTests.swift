import LMDBStore
import Crypto
import EventLog
import Foundation
import LMDB
import ReelTestSupport
import Testing

/// A replay checks the chain it reads (`ReplayCheck`), folded into its lanes: a damaged log is
/// refused at the first bad position with the rule `reel audit verify` would name, whichever lane
/// owns the damaged event and however the replay is cut into calls.
@Suite struct ReplayCheckTests {
    /// 3,000 events over three interleaved streams, appended in runs of 50.
    private func ledger() async throws -> EventLog {
        let log = try EventLog.open(at: temporaryDirectory())
        for round in 0..<20 {
            for name in ["ann", "bob", "cy"] {
                let events = try (0..<50).map { i in
                    try ProposedEvent(type: "favorite-added", payload: Array("{\"id\":\(round * 100 + i)}".utf8))
                }
                try await log.append(events, to: try StreamID(name))
            }
        }
        return log
    }

    /// A whole replay as a rebuild makes it: batches of 700 over `partitions` lanes with one check,
    /// finished at the stored head.
    private func replayAll(_ log: EventLog, partitions: Int = 2) throws -> Int {
        let check = ReplayCheck(partitions: partitions)
        let head = try log.head()
        let end = (head?.position ?? 0) + 1
        var next: UInt64 = 1
        let seen = Counter()
        while next < end {
            let upper = min(end, next + 700)
            try log.replay(next..<upper, verifying: check) { _, _ in seen.add() }
            next = upper
        }
        try check.finish(head: head)
        return seen.value
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// Edits the stored envelopes directly, as another LMDB client could.
    private func edit(_ log: EventLog, _ body: (Transaction, Database<UInt64, [UInt8]>) throws -> Void) throws {
        let events = try log.environment.database(named: "events", UInt64.self, [UInt8].self)
        try log.environment.write { txn in try body(txn, events) }
    }

    /// Recomputes the links and hashes from `position` to the end, and the head, as someone
    /// covering their tracks would.
    private func rehash(_ log: EventLog, from position: UInt64) throws {
        let meta = try log.environment.database(named: "meta", String.self, [UInt8].self)
        try edit(log) { txn, events in
            var previous = position == 1 ? [UInt8](repeating: 0, count: 32) : Array(try #require(try txn.get(events, position - 1)).suffix(32))
            var key = position
            var last: [UInt8] = []
            while var bytes = try txn.get(events, key) {
                bytes.replaceSubrange(9..<41, with: previous)
                bytes.replaceSubrange((bytes.count - 32)..., with: Array(SHA256.hash(data: bytes[..<(bytes.count - 32)])))
                try txn.put(events, key, bytes)
                previous = Array(bytes.suffix(32))
                last = bytes
                key += 1
            }
            var head = [UInt8]()
            withUnsafeBytes(of: (key - 1).bigEndian) { head.append(contentsOf: $0) }
            head.append(contentsOf: last[65..<73])
            head.append(contentsOf: previous)
            try txn.put(meta, "head", head)
        }
    }

    private func set(_ bytes: inout [UInt8], at offset: Int, _ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.replaceSubrange(offset..<(offset + 8), with: $0) }
    }

    struct Damage: Sendable, CustomStringConvertible {
        let description: String
        let rule: String
        let position: UInt64
        let apply: @Sendable (ReplayCheckTests, EventLog) throws -> Void
    }

    static let damages: [Damage] = [
        Damage(description: "a changed payload byte", rule: "hash-mismatch", position: 1_500) { t, log in
            try t.edit(log) { txn, events in
                var bytes = try #require(try txn.get(events, 1_500))
                bytes[bytes.count - 40] ^= 1
                try txn.put(events, 1_500, bytes)
            }
        },
        Damage(description: "a changed hash", rule: "hash-mismatch", position: 2_222) { t, log in
            try t.edit(log) { txn, events in
                var bytes = try #require(try txn.get(events, 2_222))
                bytes[bytes.count - 1] ^= 1
                try txn.put(events, 2_222, bytes)
            }
        },
        Damage(description: "a deleted event", rule: "gap", position: 700) { t, log in
            try t.edit(log) { txn, events in _ = try txn.delete(events, 700) }
        },
        Damage(description: "two events swapped", rule: "position-mismatch", position: 1_200) { t, log in
            try t.edit(log) { txn, events in
                let a = try #require(try txn.get(events, 1_200)), b = try #require(try txn.get(events, 1_800))
                try txn.put(events, 1_200, b)
                try txn.put(events, 1_800, a)
            }
        },
        Damage(description: "a duplicate inserted, positions and chain redone", rule: "stream-version", position: 1_001) { t, log in
            try t.edit(log) { txn, events in
                var key: UInt64 = 3_000
                while key > 1_000 {
                    var bytes = try #require(try txn.get(events, key))
                    t.set(&bytes, at: 1, key + 1)
                    try txn.put(events, key + 1, bytes)
                    key -= 1
                }
                var copy = try #require(try txn.get(events, 1_000))
                t.set(&copy, at: 1, 1_001)
                try txn.put(events, 1_001, copy)
            }
            try t.rehash(log, from: 1_001)
        },
        Damage(description: "time going back, chain redone", rule: "time-order", position: 2_100) { t, log in
            try t.edit(log) { txn, events in
                var bytes = try #require(try txn.get(events, 2_100))
                t.set(&bytes, at: 65, 0)
                try txn.put(events, 2_100, bytes)
            }
            try t.rehash(log, from: 2_100)
        },
        Damage(description: "a version skipped, chain redone", rule: "stream-version", position: 900) { t, log in
            try t.edit(log) { txn, events in
                var bytes = try #require(try txn.get(events, 900))
                t.set(&bytes, at: 57, 99)
                try txn.put(events, 900, bytes)
            }
            try t.rehash(log, from: 900)
        },
        Damage(description: "the last events cut off, head kept", rule: "head-mismatch", position: 2_997) { t, log in
            try t.edit(log) { txn, events in for key: UInt64 in 2_998...3_000 { _ = try txn.delete(events, key) } }
        },
        Damage(description: "a stale head", rule: "head-mismatch", position: 3_000) { t, log in
            let meta = try log.environment.database(named: "meta", String.self, [UInt8].self)
            try log.environment.write { txn in
                var head = try #require(try txn.get(meta, "head"))
                head[47] ^= 1
                try txn.put(meta, "head", head)
            }
        },
    ]

    @Test func anIntactLogReplaysInBatchesAndEndsAtItsHead() async throws {
        let log = try await ledger()
        #expect(try replayAll(log) == 3_000)
        #expect(try replayAll(log, partitions: 3) == 3_000)
        #expect(try replayAll(log, partitions: 1) == 3_000)
    }

    @Test(arguments: damages)
    func aDamagedLogIsRefusedAtTheFirstBadPositionWithItsRule(_ damage: Damage) async throws {
        let log = try await ledger()
        try damage.apply(self, log)
        for partitions in [1, 2, 3] {
            #expect(performing: { _ = try replayAll(log, partitions: partitions) }, throws: { error in
                guard case EventLogError.brokenChain(let problem) = error else { return false }
                return problem.rule.rawValue == damage.rule && problem.position == damage.position
            })
        }
    }

    /// `check(_:)` goes on over events read elsewhere (a rebuild's tail, read in its write
    /// transaction) from where the lanes stopped.
    @Test func theTailIsCheckedFromWhereTheReplayStopped() async throws {
        let log = try await ledger()
        let check = ReplayCheck(partitions: 2)
        try log.replay(1..<2_001, verifying: check) { _, _ in }
        let tail = try log.read(from: 2_001, maxCount: 1_000)
        try check.check(tail)
        try check.finish(head: try log.head())

        let broken = ReplayCheck(partitions: 2)
        try log.replay(1..<2_001, verifying: broken) { _, _ in }
        var skipped = Array(tail.dropFirst())
        #expect(throws: EventLogError.self) { try broken.check(skipped) }
        skipped = tail
        skipped.swapAt(10, 11)
        let again = ReplayCheck(partitions: 2)
        try log.replay(1..<2_001, verifying: again) { _, _ in }
        #expect(performing: { try again.check(skipped) }, throws: { error in
            guard case EventLogError.brokenChain(let problem) = error else { return false }
            return problem.position == 2_011 && problem.rule.rawValue == "gap"
        })
    }
}
