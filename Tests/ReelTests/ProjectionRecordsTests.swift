import EventLog
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// The stored projections (`reel-projections/3`): an account's state is a header and one record
/// per saved title, so a command writes the titles it changed, not the whole list.
@Suite struct ProjectionRecordsTests {
    /// Every record of the live slot's states and titles: key → sealed value.
    private func records(_ service: AccountService) throws -> (states: [[UInt8]: [UInt8]], items: [[UInt8]: [UInt8]]) {
        try service.log.read { txn in
            let slot = try service.store.liveSlot(txn)
            var states: [[UInt8]: [UInt8]] = [:], items: [[UInt8]: [UInt8]] = [:]
            try txn.table(slot.states).forEach { key, value in
                states[Array(key)] = Array(value)
                return true
            }
            try txn.table(slot.items).forEach { key, value in
                items[Array(key)] = Array(value)
                return true
            }
            return (states, items)
        }
    }

    private func titles(_ range: ClosedRange<Int64>) throws -> [MediaKey] {
        try range.map { try MediaKey($0 % 2 == 0 ? .movie : .tv, $0) }
    }

    @Test func anAddWritesItsTitleAndTheHeaderAndLeavesEveryOtherTitleAsItWas() throws {
        let service = try AccountService.open(at: temporaryDirectory())
        let ann = try AccountHandle("ann")
        _ = try service.execute(.addFavorites(try titles(1...500)), for: ann)
        let before = try records(service)
        #expect(before.items.count == 500)
        #expect(before.states.count == 1)

        let added = try service.execute(.addFavorites([try MediaKey(.movie, 9_001)]), for: ann)
        let after = try records(service)
        #expect(after.items.count == 501)
        let new = Set(after.items.keys).subtracting(before.items.keys)
        #expect(new == [AccountStateCodec.itemKey(try #require(added.stream), try #require(added.appended.first).position)])
        // The other 500 records are the very bytes they were (not sealed again).
        for (key, value) in before.items { #expect(after.items[key] == value) }
        // The header does not grow with the list: 500 titles or 501, the same size.
        #expect(after.states.values.first?.count == before.states.values.first?.count)
        #expect(try service.view(of: ann).state.saved.count == 501)
    }

    @Test func aRemovalDeletesItsTitleAndADeletionEveryTitleOfTheAccount() throws {
        let service = try AccountService.open(at: temporaryDirectory())
        let ann = try AccountHandle("ann"), ben = try AccountHandle("ben")
        _ = try service.execute(.addFavorites(try titles(1...40)), for: ann)
        _ = try service.execute(.addFavorites(try titles(1...3)), for: ben)
        let removed = try titles(10...19)
        _ = try service.execute(.removeFavorites(removed), for: ann)
        #expect(try records(service).items.count == 33)
        let view = try service.view(of: ann)
        #expect(view.state.saved.items.map(\.key) == (try titles(1...9) + titles(20...40)))

        // Added again: a new record at the new position, after the others.
        _ = try service.execute(.addFavorites([removed[0]]), for: ann)
        #expect(try service.view(of: ann).state.saved.items.last?.key == removed[0])

        _ = try service.execute(.deleteAccount, for: ann)
        let left = try records(service)
        #expect(left.items.count == 3)
        let benStream = try #require(try service.view(of: ben).stream)
        #expect(left.items.keys.allSatisfy { $0.starts(with: AccountStateCodec.itemPrefix(benStream)) })
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
    }

    @Test func severalCommandsOnOneAccountInOneTransactionStoreWhatAReplayMakes() async throws {
        let service = try AccountService.open(at: temporaryDirectory())
        let committer = CommandCommitter(service: service) { _, _ in }
        let ann = try AccountHandle("ann")
        _ = try service.execute(.addFavorites(try titles(1...20)), for: ann)
        // Adds and removes of the same titles, queued together so that batches hold several.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<60 {
                let key = try MediaKey(.movie, Int64(2 * (round % 15) + 2))
                let command: Command = round % 3 == 0 ? .removeFavorites([key]) : .addFavorites([key])
                group.addTask { _ = try await committer.submit(CommandRequest(command: command, handle: ann, key: nil, photo: nil)) }
            }
            try await group.waitForAll()
        }
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
        let stored = try service.log.read { txn in try service.store.state(of: try #require(service.view(of: ann).stream), try service.store.liveSlot(txn), txn) }
        let all = try service.log.read(from: 1, maxCount: Int.max)
        var replay = AccountState()
        for event in all { try Projector().apply(event, to: &replay) }
        #expect(stored == replay)
    }

    @Test func aDamagedTitleRecordOrOneWithoutItsAccountIsReportedByTheRebuildCheck() throws {
        let service = try AccountService.open(at: temporaryDirectory())
        let ann = try AccountHandle("ann")
        let report = try service.execute(.addFavorites(try titles(1...5)), for: ann)
        let stream = try #require(report.stream)
        let key = AccountStateCodec.itemKey(stream, try #require(report.appended.last).position)
        try service.log.write(shredding: { _ in }) { w in
            let items = w.table(try service.store.liveSlot(w).items)
            var sealed = try #require(try items.get(key))
            sealed[sealed.count - 1] ^= 1
            try items.put(key, sealed)
        }
        service.recent.forgetAll()
        let damaged = try service.rebuildProjections(checkOnly: true)
        #expect(damaged.drift.map(\.kind) == [.differs])
        #expect(damaged.drift.first?.detail.contains("does not authenticate") == true)
        // The rebuild puts it right.
        _ = try service.rebuildProjections(checkOnly: false)
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)

        // A title of a stream with no stored state: that stream is reported.
        let stray = try StreamID("account-stray")
        try service.log.write(shredding: { _ in }) { w in
            try w.table(try service.store.liveSlot(w).items).put(AccountStateCodec.itemKey(stray, 3), [1, 2, 3])
        }
        let orphan = try service.rebuildProjections(checkOnly: true)
        #expect(orphan.drift.map(\.subject) == [stray.rawValue])
    }

    @Test func projectionsOfTheEarlierFormatAreRebuiltWhenTheLedgerOpens() throws {
        let directory = temporaryDirectory()
        let ann = try AccountHandle("ann")
        do {
            let service = try AccountService.open(at: directory)
            _ = try service.execute(.addFavorites(try titles(1...30)), for: ann)
            _ = try service.execute(.rename(try ProfileName("Ann")), for: ann)
            // A ledger of `reel-projections/2` has no title records (its states held the lists).
            try service.log.write(shredding: { _ in }) { w in
                let slot = try service.store.liveSlot(w)
                try w.table(slot.items).removeAll()
                try w.table(service.store.control).put(Array("format".utf8), Array("reel-projections/2".utf8))
            }
        }
        let reopened = try AccountService.open(at: directory)
        let view = try reopened.view(of: ann)
        #expect(view.state.saved.items.map(\.key) == (try titles(1...30)))
        #expect(view.state.settings.name?.value == "Ann")
        #expect(try records(reopened).items.count == 30)
        let format = try reopened.log.read { txn in try txn.table(reopened.store.control).get(Array("format".utf8)) }
        #expect(format == Array(ProjectionStore.format.utf8))
    }
}
