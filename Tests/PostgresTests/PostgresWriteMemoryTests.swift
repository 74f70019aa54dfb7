import EventLog
import Foundation
import PostgresStore
import ReelTestSupport
import Testing

/// The shortcuts of the PostgreSQL write path, each against what could go wrong with it (a real
/// server): a write transaction starts from what this process's last one left (`WriteMemory`)
/// only while nobody else has written; statements sent without waiting still fail their
/// transaction; and a group commit's batch that leaves an id stored already to the unique index
/// fails as a whole, so that each request is tried again alone.
@Suite struct PostgresWriteMemoryTests {
    static let started = Task { try await PostgresServer.started("PostgresWriteMemoryTests") }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func event(_ id: UUID = .newEventID()) throws -> ProposedEvent { try ProposedEvent(id: id, type: "noted", payload: bytes(#"{"n":1}"#)) }

    static func store(_ name: String) async throws -> (PostgresLocation, String) {
        let server = try await started.value
        let location = try PostgresLocation(server.url(database: try await server.createDatabase(name)))
        _ = try await PostgresMigrator.migrate(location)
        return (location, temporaryDirectory(name + "-keyring"))
    }

    /// Two processes' stores on one database (each its own memory): what the other writes —
    /// appends, and projection rows in a transaction that appends nothing — is what this one's
    /// next write reads, and its expected versions are checked against the other's appends. A
    /// body acts only through its transaction (it may run twice: a transaction begun from the
    /// process's memory without waiting for the lock runs again when the lock says another
    /// process wrote): what it saw is returned and checked after the commit.
    @Test func anotherProcessesWritesAreSeenByTheNextWrite() async throws {
        let (location, keyring) = try await Self.store("memory")
        try await offThread {
            let one = try PostgresEventStore.open(location, directory: temporaryDirectory("memory-one"), keyring: keyring)
            let other = try PostgresEventStore.open(location, directory: temporaryDirectory("memory-other"), keyring: keyring)
            let table = try one.projectionTable(named: "memory")
            let stream = try StreamID("memory-ann")
            func value(_ w: PostgresWrite) throws -> String? { try w.table(table).get(Self.bytes("k")).map { String(decoding: $0, as: UTF8.self) } }
            func seen(_ store: PostgresEventStore) throws -> (UInt64, String?) {
                try store.write(shredding: { _ in }) { w in (try w.version(of: stream), try value(w)) }
            }
            try one.write(shredding: { _ in }) { w in
                try w.append([try Self.event()], to: stream, expected: .noStream)
                try w.table(table).put(Self.bytes("k"), Self.bytes("one"))
            }
            // This process's own last write is what the next one starts from.
            #expect(try seen(one) == (1, "one"))
            let before = try other.write(shredding: { _ in }) { w in
                let seen = (try w.version(of: stream), try value(w))
                try w.append([try Self.event()], to: stream, expected: .exact(1))
                try w.table(table).put(Self.bytes("k"), Self.bytes("other"))
                return seen
            }
            #expect(before == (1, "one"))
            let (then, refused) = try one.write(shredding: { _ in }) { w in
                let seen = (try w.version(of: stream), try value(w))
                let refused = Result { try w.append([try Self.event()], to: stream, expected: .exact(1)) }
                try w.append([try Self.event()], to: stream, expected: .exact(2))
                return (seen, refused)
            }
            #expect(then == (2, "other"))
            #expect(throws: EventLogError.self) { try refused.get() }
            // A transaction of the other that only writes a row (no append, the head unmoved).
            try other.write(shredding: { _ in }) { w in try w.table(table).put(Self.bytes("k"), Self.bytes("again")) }
            let again = try one.write(shredding: { _ in }) { w in
                let seen = (try w.version(of: stream), try value(w))
                try w.table(table).delete(Self.bytes("k"))
                return seen
            }
            #expect(again == (3, "again"))
            #expect(try seen(other) == (3, nil))
            // A transaction that failed leaves nothing to start from: its rows were never stored.
            struct Stop: Error {}
            #expect(throws: Stop.self) {
                try one.write(shredding: { _ in }) { w in
                    try w.table(table).put(Self.bytes("k"), Self.bytes("lost"))
                    _ = try w.append([try Self.event()], to: stream, expected: .exact(3))
                    throw Stop()
                }
            }
            #expect(try seen(one) == (3, nil))
            #expect(try one.read(stream: stream, from: 1, maxCount: 10).count == 3)
        }
    }

    /// A transaction whose `COMMIT` is in flight (`writeAhead`) and the next one, begun from
    /// what it leaves without waiting: when the first fails at its commit (its last statement
    /// meets an id stored already), the second finds the generation it began from never came,
    /// runs again from what the server holds, and commits where the log really ends; the first
    /// stores nothing, and nothing it left is used afterwards.
    @Test func aTransactionBegunBehindOneThatFailsRunsAgainFromTheServer() async throws {
        let (location, keyring) = try await Self.store("pipeline")
        try await offThread {
            let store = try PostgresEventStore.open(location, directory: temporaryDirectory("pipeline-store"), keyring: keyring)
            let ann = try StreamID("pipe-ann"), ben = try StreamID("pipe-ben")
            let table = try store.projectionTable(named: "pipeline")
            let stored = try Self.event()
            _ = try store.append([stored], to: ann, expected: .noStream)
            _ = try store.append([try Self.event()], to: ben, expected: .noStream)
            let head = try store.head()
            // The first: ben's append and ann's retry, left to the unique index (it fails at its commit).
            let (_, first) = try store.writeAhead { w in
                try w.prefetchVersions(of: [ann, ben])
                try w.table(table).put(Self.bytes("k"), Self.bytes("first"))
                return try w.append(
                    batch: [AppendRequest(events: [try Self.event()], to: ben, expected: .exact(1)), AppendRequest(events: [stored], to: ann, expected: .any)],
                    checkingIDs: false)
            }
            // The second, begun while the first's commit is in flight: it sees what the first left
            // the first time (ben at 2), and what the server holds when it runs again (ben at 1).
            let (seen, second) = try store.writeAhead { w in
                let seen = (try w.version(of: ben), try w.table(table).get(Self.bytes("k")).map { String(decoding: $0, as: UTF8.self) })
                try w.append([try Self.event()], to: ben, expected: .exact(seen.0))
                return seen
            }
            let (waitFirst, waitSecond) = (try #require(first), try #require(second))
            #expect(throws: (any Error).self) { try waitFirst() }
            try waitSecond()
            #expect(seen == (1, nil), "the second's decisions are the ones made on what the server holds")
            let log = try store.read(from: 1, maxCount: 10)
            #expect(log.map(\.position) == [1, 2, 3] && log.map(\.streamID) == [ann, ben, ben])
            #expect(try store.head()?.position == (head?.position ?? 0) + 1)
            // What comes after starts from the server, not from what the failed one left.
            let after = try store.write(shredding: { _ in }) { w in (try w.version(of: ben), try w.table(table).get(Self.bytes("k"))) }
            #expect(after.0 == 2 && after.1 == nil)
        }
    }

    /// The statements a write transaction sends without waiting (its events, its projection rows,
    /// the head) fail it when the server refuses one: here an event id stored already in another
    /// stream, sent as a group commit's batch does; nothing of the transaction is stored, and
    /// the requests tried alone get their own answers (the retry its first positions).
    @Test func aBatchMeetingAStoredIdFailsWholeAndEachAloneGetsItsAnswer() async throws {
        let (location, keyring) = try await Self.store("optimistic")
        try await offThread {
            let store = try PostgresEventStore.open(location, directory: temporaryDirectory("optimistic-store"), keyring: keyring)
            let ann = try StreamID("opt-ann"), ben = try StreamID("opt-ben")
            let stored = try Self.event()
            let first = try store.append([stored], to: ann, expected: .noStream)
            _ = try store.append([try Self.event()], to: ben, expected: .noStream)
            let head = try store.head()
            let batch = [
                AppendRequest(events: [try Self.event()], to: ben, expected: .exact(1)),
                AppendRequest(events: [stored], to: ann, expected: .any),
            ]
            // Every stream's version held (read ahead): the ids are left to the unique index.
            #expect(throws: (any Error).self) {
                try store.write(shredding: { _ in }) { w in
                    try w.prefetchVersions(of: [ann, ben])
                    _ = try w.append(batch: batch, checkingIDs: false)
                }
            }
            #expect(try store.head() == head, "nothing of the failed transaction is stored")
            // Alone (or from a caller that does not try again alone), each is checked.
            let answers = try store.write(shredding: { _ in }) { w in
                try w.prefetchVersions(of: [ann, ben])
                return try w.append(batch: batch, checkingIDs: true)
            }
            #expect(try answers[0].get().map(\.streamVersion) == [2])
            #expect(try answers[1].get().map(\.position) == first.positions, "the retry answers the first positions")
            // An id stored in another stream is refused, alone, and the others go on.
            let refused = try store.write(shredding: { _ in }) { w in
                try w.append(batch: [AppendRequest(events: [stored], to: ben, expected: .any), AppendRequest(events: [try Self.event()], to: ann, expected: .exact(1))])
            }
            #expect(throws: EventLogError.self) { try refused[0].get() }
            #expect(try refused[1].get().map(\.streamVersion) == [2])
        }
    }

    /// Group commit of raw appends (`append(…) async`) with a retry among many concurrent
    /// appends: whichever batches they fall in, the retry answers its first positions, the rest
    /// are each stored once, and positions stay gapless.
    @Test func aRetryAmongConcurrentAppendsAnswersItsFirstPositions() async throws {
        let (location, keyring) = try await Self.store("concurrent")
        let store = try await offThread { try PostgresEventStore.open(location, directory: temporaryDirectory("concurrent-store"), keyring: keyring) }
        let streams = try (0..<16).map { try StreamID("concurrent-\($0)") }
        let stored = try Self.event()
        let first = try await store.append([stored], to: streams[0], expected: .noStream)
        for round in 0..<3 {
            let results = try await withThrowingTaskGroup(of: (Int, AppendResult).self) { group in
                for (index, stream) in streams.enumerated() {
                    group.addTask { (index, try await store.append([try Self.event()], to: stream, expected: .any)) }
                }
                group.addTask { (-1, try await store.append([stored], to: streams[0], expected: .any)) }
                var out: [Int: AppendResult] = [:]
                for try await (index, result) in group { out[index] = result }
                return out
            }
            #expect(results[-1]?.positions == first.positions && results[-1]?.deduplicated == true, "round \(round)")
            #expect(results.filter { $0.key >= 0 }.allSatisfy { !$0.value.deduplicated })
        }
        let all = try await offThread { try store.read(from: 1, maxCount: 1_000) }
        #expect(all.map(\.position) == Array(1...UInt64(1 + 3 * streams.count)))
        #expect(Set(all.map(\.eventID)).count == all.count)
    }
}
