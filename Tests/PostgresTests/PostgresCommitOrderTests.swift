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
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }  // a test that fails midway lets the held write go
        let slow = Task {
            try await offThread {
                try store.write { w in
                    try w.append([try ProposedEvent(type: "slow", payload: [])], to: ann, expected: .any)
                    holding.withLock { $0 = true }
                    release.wait()  // position 2, held uncommitted until the later append waits for it
                }
            }
        }
        try await waitFor("the earlier write to hold position 2") { holding.withLock { $0 } }
        let fastDone = Mutex(false)
        let fast = Task {
            defer { fastDone.withLock { $0 = true } }
            return try await offThread { try store.append([try ProposedEvent(type: "fast", payload: [])], to: ben, expected: .any) }
        }
        // The later append waits on the earlier one's row lock, as PostgreSQL itself reports.
        try await waitFor("the later append to wait for a lock") {
            (try? await server.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) == "1"
        }
        #expect(!fastDone.withLock { $0 }, "the later append returned while the earlier held its position")
        release.signal()
        try await slow.value
        let appended = try await fast.value
        #expect(appended.positions == [3], "the append that started later comes after the one that held its position")
        try await subscriber.value
        #expect(seen.withLock { $0 } == [1, 2, 3], "the subscriber saw every position, in order")
    }
}
