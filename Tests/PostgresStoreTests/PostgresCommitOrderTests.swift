import EventLog
import Foundation
import PostgresStore
import ReelTestSupport
import Synchronization
import Testing

/// The failure PostgreSQL-backed event stores are known for: positions taken from a sequence are
/// handed out in the order transactions start, not the order they commit, so a reader can see
/// N+1 committed while N is still open, move past it, and never see N. Here positions are given
/// under `reel_head`'s row lock: while one write holds position N uncommitted, another append
/// waits, and a subscriber sees nothing past N-1 until N commits, then both, in order.
@Suite struct PostgresCommitOrderTests {
    static let started = Task { try await PostgresServer.started("PostgresCommitOrderTests") }

    @Test func aLateCommitIsNeverSkippedByASubscriber() async throws {
        let server = try await Self.started.value
        let location = try PostgresLocation(server.url(database: try await server.createDatabase("order")))
        _ = try await PostgresMigrator.migrate(location)
        let store = try PostgresEventStore.open(location, directory: temporaryDirectory("order"))
        let ann = try StreamID("ann"), ben = try StreamID("ben")
        _ = try await store.append([try ProposedEvent(type: "first", payload: [])], to: ann, expected: .any)

        let seen = Mutex<[UInt64]>([])
        let subscriber = Task {
            for try await message in store.subscribe(from: 1) {
                if case .event(let event) = message { seen.withLock { $0.append(event.position) } }
                if seen.withLock({ $0.count }) == 3 { return }
            }
        }
        let holding = Mutex(false)
        let slow = Task {
            try await offThread {
                try store.write { w in
                    try w.append([try ProposedEvent(type: "slow", payload: [])], to: ann, expected: .any)
                    holding.withLock { $0 = true }
                    Thread.sleep(forTimeInterval: 1.5)  // position 2, held uncommitted
                }
            }
        }
        while !holding.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        let started = Date()
        let fast = try await offThread { try store.append([try ProposedEvent(type: "fast", payload: [])], to: ben, expected: .any) }
        let waited = Date().timeIntervalSince(started)
        try await slow.value
        #expect(fast.positions == [3], "the append that started later comes after the one that held its position")
        #expect(waited > 1.0, "the later append waited for the earlier commit (\(waited) s)")
        try await subscriber.value
        #expect(seen.withLock { $0 } == [1, 2, 3], "the subscriber saw every position, in order")
    }
}
