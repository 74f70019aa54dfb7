import LMDBStore
import EventLog
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// A rebuild replays each lane's share of the streams into a set of its own and merges them: the
/// merged set must be what one replay of everything in log order gives, handles included.
@Suite struct ProjectionSetMergeTests {
    /// (stream, event) in log order; positions are 1, 2, 3, …
    private func replayed(_ script: [(String, DomainEvent?)]) throws -> [Replayed] {
        var versions: [String: UInt64] = [:]
        return try script.enumerated().map { index, step in
            versions[step.0, default: 0] += 1
            return Replayed(
                stream: try StreamID(step.0), position: UInt64(index + 1), streamVersion: versions[step.0]!,
                recordedAt: 1_700_000_000_000_000 + Int64(index), event: step.1)
        }
    }

    private func merged(_ events: [Replayed], lanes: Int, lane: (StreamID) -> Int) throws -> ProjectionSet {
        var parts = Array(repeating: ProjectionSet(position: 0), count: lanes)
        for event in events { try parts[lane(event.stream)].apply(event) }
        return ProjectionSet.merging(parts, projector: Projector())
    }

    @Test func handlesPassingBetweenAccountsOnDifferentLanesEndAsInOneReplay() throws {
        let ann = try AccountHandle("ann"), cy = try AccountHandle("cy")
        let events = try replayed([
            ("a", .accountOpened(ann)), ("c", .accountOpened(cy)), ("a", .favoriteAdded(try MediaKey(.movie, 1))),
            ("a", .accountDeleted),
            // "ann" is free again: b takes it.
            ("b", .accountOpened(ann)), ("b", .favoriteAdded(try MediaKey(.tv, 2))),
            // A log that holds a second open before the first account's delete (an import of
            // another ledger, say): the delete must not free the handle b holds.
            ("d", .accountOpened(cy)), ("c", .accountDeleted), ("e", nil), ("b", .languageSwitched(try LanguageTag("de-DE"))),
        ])
        var serial = ProjectionSet(position: 0)
        for event in events { try serial.apply(event) }
        #expect(serial.directory == [ann: try StreamID("b"), cy: try StreamID("d")])
        let assignments: [[String: Int]] = [
            ["a": 0, "b": 1, "c": 0, "d": 1, "e": 0], ["a": 1, "b": 0, "c": 1, "d": 0, "e": 1], ["a": 0, "b": 0, "c": 1, "d": 2, "e": 2],
        ]
        for assignment in assignments {
            let lanes = (assignment.values.max() ?? 0) + 1
            let set = try merged(events, lanes: lanes) { assignment[$0.rawValue]! }
            #expect(set.directory == serial.directory, "\(assignment)")
            #expect(set.states == serial.states, "\(assignment)")
            #expect(set.position == serial.position)
            #expect(set.touched == serial.touched)
        }
    }

    /// A rebuild racing a deletion: its bulk replay read the account while the key was live, its
    /// tail meets `account-deleted` after the key is gone. The deletion must still free the
    /// handle (its type is in the clear, its payload empty), and a set that drops an account must
    /// not keep a handle pointing at it.
    @Test func aDeletionMetAfterItsKeyIsGoneStillFreesTheHandle() throws {
        let ann = try AccountHandle("ann")
        let stream = try StreamID("account-a")
        let log = try EventLog.open(at: temporaryDirectory())
        try log.append([try ProposedEvent(type: "account-opened", payload: Array(#"{"handle":"ann"}"#.utf8))], to: stream)
        try log.append([try ProposedEvent(type: "account-deleted", payload: Array("{}".utf8))], to: stream)
        try log.write { try $0.close(stream, atMicroseconds: 1) }
        try log.completeShredding()
        let shredded = try #require(try log.read(stream: stream).last)
        #expect(shredded.isShredded && shredded.type == "account-deleted")
        #expect(try Projector().domainEvent(shredded) == .accountDeleted)
        var set = ProjectionSet(position: 0)
        try set.apply(Replayed(stream: stream, position: 1, streamVersion: 1, recordedAt: 1, event: .accountOpened(ann)))
        try set.apply(Replayed(stream: stream, position: 2, streamVersion: 2, recordedAt: 2, event: try Projector().domainEvent(shredded)))
        #expect(set.directory[ann] == nil)
        #expect(set.states[stream]?.status == .deleted)

        var kept = ProjectionSet(position: 0)
        try kept.apply(Replayed(stream: stream, position: 1, streamVersion: 1, recordedAt: 1, event: .accountOpened(ann)))
        kept.remove(stream)
        #expect(kept.directory[ann] == nil, "a dropped account's handle stayed")
    }
}
