import Foundation
import Testing
@testable import Catalog
import ReelTestSupport

/// OMDb's daily budget: counted per slot per UTC day in a store every process shares, bulk work
/// stopping short of the limit, OMDb's own "limit reached" counted as all, a new day at
/// midnight UTC, and the slot never the key.
@Suite struct OMDbBudgetTests {
    /// 2026-11-25 23:59:59.5 UTC, in microseconds.
    static let lateOnTheDay: Int64 = 1_795_651_199_500_000

    @Test func countsToTheLimitAndBulkStopsShort() throws {
        let budget = try OMDbBudget.open(at: temporaryDirectory() + "/budget")
        let day = OMDbBudget.day(of: Self.lateOnTheDay)
        #expect(OMDbBudget.bulkCeiling(of: 1000) == 900)
        #expect(OMDbBudget.bulkCeiling(of: 10) == 9)
        #expect(OMDbBudget.bulkCeiling(of: 5) == 4)
        #expect(OMDbBudget.bulkCeiling(of: 1) == 0)
        for _ in 0..<9 { #expect(budget.take(slot: "a", day: day, limit: 10, priority: .bulk)) }
        #expect(!budget.take(slot: "a", day: day, limit: 10, priority: .bulk), "bulk stops at 9 of 10")
        #expect(budget.take(slot: "a", day: day, limit: 10, priority: .interactive), "the tenth is kept for what the user opens")
        #expect(!budget.take(slot: "a", day: day, limit: 10, priority: .interactive))
        #expect(budget.usage(slot: "a", day: day, limit: 10).used == 10)
        #expect(budget.take(slot: "b", day: day, limit: 10, priority: .bulk), "another key has its own count")
    }

    @Test func aNewDayStartsAtMidnightUTC() throws {
        let budget = try OMDbBudget.open(at: temporaryDirectory() + "/budget")
        let before = OMDbBudget.day(of: Self.lateOnTheDay)
        let after = OMDbBudget.day(of: Self.lateOnTheDay + 500_000)  // 00:00:00.0 the next day
        #expect(after == before + 1)
        #expect(OMDbBudget.day(of: Self.lateOnTheDay + 499_999) == before)
        for _ in 0..<3 { _ = budget.take(slot: "k", day: before, limit: 3, priority: .interactive) }
        #expect(!budget.take(slot: "k", day: before, limit: 3, priority: .interactive))
        #expect(budget.usage(slot: "k", day: before, limit: 3).resetsAt == Self.lateOnTheDay + 500_000)
        #expect(budget.take(slot: "k", day: after, limit: 3, priority: .interactive), "midnight UTC gives the day's budget again")
        #expect(budget.usage(slot: "k", day: after, limit: 3).used == 1)
        #expect(budget.usage(slot: "k", day: before, limit: 3).used == 0, "yesterday's count is forgotten")
    }

    @Test func omdbsLimitReachedCountsAsAll() throws {
        let budget = try OMDbBudget.open(at: temporaryDirectory() + "/budget")
        budget.markSpent(slot: "s", day: 7, limit: 1000)
        #expect(!budget.take(slot: "s", day: 7, limit: 1000, priority: .interactive))
        #expect(budget.usage(slot: "s", day: 7, limit: 1000).left == 0)
    }

    @Test func theStoreIsSharedByEveryOpener() throws {
        let directory = temporaryDirectory() + "/budget"
        let first = try OMDbBudget.open(at: directory)
        let second = try OMDbBudget.open(at: directory)
        #expect(first.take(slot: "x", day: 1, limit: 2, priority: .interactive))
        #expect(second.take(slot: "x", day: 1, limit: 2, priority: .interactive))
        #expect(!first.take(slot: "x", day: 1, limit: 2, priority: .interactive))
        #expect(second.usage(slot: "x", day: 1, limit: 2).used == 2)
    }

    @Test func aBudgetInThisProcessCountsAlone() {
        let budget = OMDbBudget.inProcess()
        #expect(!budget.isShared)
        #expect(budget.take(slot: "x", day: 1, limit: 1, priority: .interactive))
        #expect(!budget.take(slot: "x", day: 1, limit: 1, priority: .interactive))
    }

    @Test func theSlotIsASaltedHashNeverTheKey() throws {
        let config = temporaryDirectory()
        let store = OMDbKeyStore(environment: ["XDG_CONFIG_HOME": config])
        let key = OMDbKey("1a2b3c4d")
        let slot = OMDbBudgetSlot.slot(for: key, store: store)
        #expect(slot != OMDbBudgetSlot.shared)
        #expect(!slot.contains("1a2b3c4d"))
        #expect(slot == OMDbBudgetSlot.slot(for: key, store: store), "the same key keeps its slot")
        #expect(slot != OMDbBudgetSlot.slot(for: OMDbKey("1a2b3c4e"), store: store), "another key has another")
        let salt = config + "/reel/omdb-budget-salt"
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: salt)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        // Another machine (another salt) names the same key differently: the store alone says nothing of it.
        let elsewhere = OMDbKeyStore(environment: ["XDG_CONFIG_HOME": temporaryDirectory("elsewhere")])
        #expect(OMDbBudgetSlot.slot(for: key, store: elsewhere) != slot)
    }

    /// Two processes starting together both find no salt and both make one (what `makeSalt` is
    /// called for): the first one made stays, so the key has one slot and one budget. (Before, the
    /// second replaced the first after the first had read it: two `reel saved` at once spent 18
    /// requests each of a budget of 20.)
    @Test func twoProcessesMakingTheSaltAtOnceKeepTheFirst() throws {
        let config = temporaryDirectory()
        let store = OMDbKeyStore(environment: ["XDG_CONFIG_HOME": config])
        let first = try #require(OMDbBudgetSlot.makeSalt(at: store.saltPath))
        let second = try #require(OMDbBudgetSlot.makeSalt(at: store.saltPath))
        #expect(first == second, "the second process made its own salt over the first's")
        #expect(try CredentialFile.read(store.saltPath) == first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: config + "/reel") == ["omdb-budget-salt"])
    }

    @Test func withoutAPlaceForTheSaltEveryKeySharesOneSlot() throws {
        let config = temporaryDirectory()
        try #require(FileManager.default.createFile(atPath: config + "/reel", contents: Data("a file, not a directory".utf8)))
        let store = OMDbKeyStore(environment: ["XDG_CONFIG_HOME": config])
        #expect(OMDbBudgetSlot.slot(for: OMDbKey("1a2b3c4d"), store: store) == OMDbBudgetSlot.shared)
    }
}
