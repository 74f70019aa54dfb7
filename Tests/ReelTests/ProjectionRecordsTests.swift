import Stores
import EventLog
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// The stored projections (`reel-projections/3`): an account's state is a record (with the titles
/// after its last full page) and full pages of 64 titles, so a command writes the record and the
/// pages it changed, not the whole list.
@Suite struct ProjectionRecordsTests {
    /// Every record of the live slot's states and pages of titles: key → sealed value.
    private func records(_ service: AccountService) throws -> (states: [[UInt8]: [UInt8]], pages: [[UInt8]: [UInt8]]) {
        try service.log.read { txn in
            let slot = try service.store.liveSlot(txn)
            var states: [[UInt8]: [UInt8]] = [:], pages: [[UInt8]: [UInt8]] = [:]
            try txn.table(slot.states).forEach { key, value in
                states[Array(key)] = Array(value)
                return true
            }
            try txn.table(slot.titles).forEach { key, value in
                pages[Array(key)] = Array(value)
                return true
            }
            return (states, pages)
        }
    }

    private func titles(_ range: ClosedRange<Int64>) throws -> [MediaKey] {
        try range.map { try MediaKey($0 % 2 == 0 ? .movie : .tv, $0) }
    }

    @Test func anAddWritesTheRecordAndLeavesEveryFullPageAsItWas() throws {
        let service = try AccountService.open(at: temporaryDirectory())
        let ann = try AccountHandle("ann")
        // 7 full pages of 64 (448 titles); the other 52 are in the record.
        let report = try service.execute(.addFavorites(try titles(1...500)), for: ann)
        let stream = try #require(report.stream)
        let before = try records(service)
        #expect(Set(before.pages.keys) == Set((0..<7).map { AccountStateCodec.pageKey(stream, $0) }))
        #expect(before.states.count == 1)

        _ = try service.execute(.addFavorites([try MediaKey(.movie, 9_001)]), for: ann)
        let after = try records(service)
        // Every page is the very bytes it was (not sealed again); the record holds one title more.
        #expect(after.pages == before.pages)
        #expect(after.states.values.first?.count == (before.states.values.first?.count ?? 0) + AccountStateCodec.entrySize)
        #expect(try service.view(of: ann).state.saved.count == 501)

        // The 512th title fills page 7; the seven before it stay as they were.
        _ = try service.execute(.addFavorites(try titles(9_002...9_013)), for: ann)
        let eighth = try records(service)
        #expect(eighth.pages.count == 8)
        for (key, value) in before.pages { #expect(eighth.pages[key] == value) }
        #expect(try service.view(of: ann).state.saved.items.map(\.key) == (try titles(1...500) + [MediaKey(.movie, 9_001)] + titles(9_002...9_013)))
        // A small account is one record, as before pages.
        _ = try service.execute(.addFavorites(try titles(1...63)), for: try AccountHandle("ben"))
        #expect(try records(service).pages.count == 8)
    }

    @Test func aRemovalRewritesThePagesFromItsTitleOnAndADeletionRemovesEveryPage() throws {
        let service = try AccountService.open(at: temporaryDirectory())
        let ann = try AccountHandle("ann"), ben = try AccountHandle("ben")
        // 3 full pages (192 titles) and 8 in the record.
        let report = try service.execute(.addFavorites(try titles(1...200)), for: ann)
        let stream = try #require(report.stream)
        _ = try service.execute(.addFavorites(try titles(1...3)), for: ben)
        let before = try records(service)
        #expect(before.pages.count == 3)
        // Titles 150–200 go: 149 are left, two full pages and 21 in the record; the two pages are
        // as they were and the third is gone.
        let removed = try titles(150...200)
        _ = try service.execute(.removeFavorites(removed), for: ann)
        let after = try records(service)
        #expect(after.pages.count == 2)
        for index in 0..<2 {
            let key = AccountStateCodec.pageKey(stream, index)
            #expect(after.pages[key] == before.pages[key])
        }
        // One from the first page: every page after it moves up a title.
        _ = try service.execute(.removeFavorites([try MediaKey(.tv, 5)]), for: ann)
        let moved = try records(service)
        for index in 0..<2 {
            let key = AccountStateCodec.pageKey(stream, index)
            #expect(moved.pages[key] != after.pages[key])
        }
        let view = try service.view(of: ann)
        #expect(view.state.saved.items.map(\.key) == (try titles(1...4) + titles(6...149)))

        // Added again: last, after the others.
        _ = try service.execute(.addFavorites([removed[0]]), for: ann)
        #expect(try service.view(of: ann).state.saved.items.last?.key == removed[0])
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)

        _ = try service.execute(.deleteAccount, for: ann)
        let left = try records(service)
        #expect(left.pages.isEmpty)
        #expect(left.states.count == 1)
        #expect(try service.view(of: ben).state.saved.count == 3)
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

    @Test func aDamagedOrMissingPageOrOneWithoutItsAccountIsReportedByTheRebuildCheck() throws {
        let service = try AccountService.open(at: temporaryDirectory())
        let ann = try AccountHandle("ann")
        let report = try service.execute(.addFavorites(try titles(1...100)), for: ann)
        let stream = try #require(report.stream)
        let key = AccountStateCodec.pageKey(stream, 0)
        try service.log.write(shredding: { _ in }) { w in
            let pages = w.table(try service.store.liveSlot(w).titles)
            var sealed = try #require(try pages.get(key))
            sealed[sealed.count - 1] ^= 1
            try pages.put(key, sealed)
        }
        service.states.forgetAll()
        let damaged = try service.rebuildProjections(checkOnly: true)
        #expect(damaged.drift.map(\.kind) == [.differs])
        #expect(damaged.drift.first?.detail.contains("does not authenticate") == true)
        // The rebuild puts it right.
        _ = try service.rebuildProjections(checkOnly: false)
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
        #expect(try service.view(of: ann).state.saved.count == 100)

        // A page gone: the list no longer fits its header, and reading it is an error.
        try service.log.write(shredding: { _ in }) { w in try w.table(try service.store.liveSlot(w).titles).delete(key) }
        service.states.forgetAll()
        #expect(try service.rebuildProjections(checkOnly: true).drift.map(\.kind) == [.differs])
        #expect(throws: ReelError.self) { try service.view(of: ann) }
        _ = try service.rebuildProjections(checkOnly: false)

        // A page of a stream with no stored state: that stream is reported.
        let stray = try StreamID("account-stray")
        try service.log.write(shredding: { _ in }) { w in
            try w.table(try service.store.liveSlot(w).titles).put(AccountStateCodec.pageKey(stray, 0), [1, 2, 3])
        }
        let orphan = try service.rebuildProjections(checkOnly: true)
        #expect(orphan.drift.map(\.subject) == [stray.rawValue])

        // Keys that name no stream at all: reported, and a rebuild still replaces the slot.
        let titles = try service.log.read { txn in try service.store.liveSlot(txn).titles }
        try service.log.write(shredding: { _ in }) { w in
            try w.table(titles).put([0xFF, 0xFE], [1])
            try w.table(titles).put([0x00, 0, 0, 0, 0], [2])
        }
        let strays = try service.rebuildProjections(checkOnly: true)
        #expect(strays.drift.contains { $0.kind == .unexpected && $0.subject == titles.name && $0.detail.hasPrefix("2 pages") })
        #expect(throws: ReelError.self) { try service.accounts() }
        _ = try service.rebuildProjections(checkOnly: false)
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
        #expect(try service.view(of: ann).state.saved.count == 100)
    }

    @Test func projectionsOfTheEarlierFormatAreRebuiltWhenTheLedgerOpens() throws {
        let directory = temporaryDirectory()
        let ann = try AccountHandle("ann")
        do {
            let service = try AccountService.open(at: directory)
            _ = try service.execute(.addFavorites(try titles(1...100)), for: ann)
            _ = try service.execute(.rename(try ProfileName("Ann")), for: ann)
            // A ledger of `reel-projections/2` has no pages of titles (its states held the lists).
            try service.log.write(shredding: { _ in }) { w in
                let slot = try service.store.liveSlot(w)
                try w.table(slot.titles).removeAll()
                try w.table(service.store.control).put(Array("format".utf8), Array("reel-projections/2".utf8))
            }
        }
        let reopened = try AccountService.open(at: directory)
        let view = try reopened.view(of: ann)
        #expect(view.state.saved.items.map(\.key) == (try titles(1...100)))
        #expect(view.state.settings.name?.value == "Ann")
        #expect(try records(reopened).pages.count == 1)
        let format = try reopened.log.read { txn in try txn.table(reopened.store.control).get(Array("format".utf8)) }
        #expect(format == Array(ProjectionStore.format.utf8))
    }
}
