import ReelTestSupport
import Ledger
import Testing

private let ann = accountHandle("ann")

private func event(_ event: DomainEvent, at position: UInt64, version: UInt64? = nil, time: Int64) -> RecordedDomainEvent {
    RecordedDomainEvent(event: event, position: position, streamVersion: version ?? position, recordedAt: time)
}

private func savedList(_ events: [DomainEvent]) -> SavedList {
    var list = SavedList()
    for e in recorded(events) { list.apply(e) }
    return list
}

private func settings(_ events: [DomainEvent]) -> Settings {
    var s = Settings()
    for e in recorded(events) { s.apply(e) }
    return s
}

@Suite struct SavedListTests {
    @Test func keepsTheOrderAdded() {
        let list = savedList([.favoriteAdded(movie(3)), .favoriteAdded(tv(1)), .favoriteAdded(movie(1))])
        #expect(list.items.map(\.key) == [movie(3), tv(1), movie(1)])
        #expect(list.count == 3)
        #expect(list.contains(tv(1)) && !list.contains(tv(3)))
    }

    @Test func itemsRememberWhenAndWhereTheyWereAdded() {
        var list = SavedList()
        list.apply(event(.favoriteAdded(movie(1)), at: 10, version: 2, time: 5_000))
        list.apply(event(.favoriteAdded(movie(2)), at: 14, version: 3, time: 9_000))
        #expect(list.items == [SavedItem(key: movie(1), addedAt: 5_000, position: 10), SavedItem(key: movie(2), addedAt: 9_000, position: 14)])
    }

    @Test func reAddAfterRemoveGoesToTheEndWithTheNewTime() {
        var list = SavedList()
        list.apply(event(.favoriteAdded(movie(1)), at: 1, time: 100))
        list.apply(event(.favoriteAdded(movie(2)), at: 2, time: 200))
        list.apply(event(.favoriteAdded(movie(3)), at: 3, time: 300))
        list.apply(event(.favoriteRemoved(movie(1)), at: 4, time: 400))
        #expect(list.items.map(\.key) == [movie(2), movie(3)])
        #expect(!list.contains(movie(1)))
        list.apply(event(.favoriteAdded(movie(1)), at: 5, time: 500))
        #expect(list.items.map(\.key) == [movie(2), movie(3), movie(1)])
        #expect(list.items.last == SavedItem(key: movie(1), addedAt: 500, position: 5))
        #expect(list.items.first == SavedItem(key: movie(2), addedAt: 200, position: 2))
    }

    @Test func addingWhatIsSavedKeepsTheFirstAddition() {
        var list = SavedList()
        list.apply(event(.favoriteAdded(movie(1)), at: 1, time: 100))
        list.apply(event(.favoriteAdded(movie(2)), at: 2, time: 200))
        list.apply(event(.favoriteAdded(movie(1)), at: 3, time: 300))
        #expect(list.items == [SavedItem(key: movie(1), addedAt: 100, position: 1), SavedItem(key: movie(2), addedAt: 200, position: 2)])
    }

    @Test func removingWhatIsNotSavedChangesNothing() {
        let before = savedList([.favoriteAdded(movie(1))])
        var after = before
        after.apply(event(.favoriteRemoved(tv(1)), at: 2, time: 1))
        #expect(after == before)
    }

    @Test func removingFromTheMiddle() {
        let list = savedList([
            .favoriteAdded(movie(1)), .favoriteAdded(movie(2)), .favoriteAdded(movie(3)), .favoriteRemoved(movie(2)),
        ])
        #expect(list.items.map(\.key) == [movie(1), movie(3)])
        #expect(list.count == 2)
    }

    /// Long random runs of adds and removes (many holes, many compactions) against a plain array.
    @Test func longRandomHistoriesMatchAPlainArray() {
        var rng = SplitMix64(seed: 77)
        for round in 0..<20 {
            var list = SavedList()
            var model: [SavedItem] = []
            for step in 1...2_000 {
                let key = (Bool.random(using: &rng) ? movie : tv)(Int64.random(in: 1...(round % 2 == 0 ? 60 : 600), using: &rng))
                if Int.random(in: 0..<5, using: &rng) < 2 {
                    list.apply(event(.favoriteRemoved(key), at: UInt64(step), time: Int64(step)))
                    model.removeAll { $0.key == key }
                } else {
                    list.apply(event(.favoriteAdded(key), at: UInt64(step), time: Int64(step)))
                    if !model.contains(where: { $0.key == key }) { model.append(SavedItem(key: key, addedAt: Int64(step), position: UInt64(step))) }
                }
                if step % 97 == 0 {
                    #expect(list.items == model, "round \(round) step \(step)")
                    #expect(list.count == model.count)
                    #expect(model.allSatisfy { list.contains($0.key) })
                    // Where each is, what it holds, and the tail from a few places (the slots are
                    // kept in chunks of 256: across their edges too).
                    #expect(model.indices.allSatisfy { list.index(of: model[$0].key) == $0 && list.item(model[$0].key) == model[$0] })
                    for start in [0, 1, model.count / 2, max(0, model.count - 1), model.count, model.count + 5] {
                        #expect(Array(list.items(from: start)) == Array(model[min(start, model.count)...]), "from \(start)")
                    }
                }
            }
            #expect(list.items == model)
            #expect(list == SavedList(items: model))
        }
    }

    /// A list is a value: a copy changed (as a command changes a state kept in a cache) leaves
    /// the original as it was, across the storage's chunks and shards, which the two share until
    /// then.
    @Test func aCopyChangedLeavesTheOriginalAsItWas() {
        var original = SavedList()
        for n in 1...700 { original.apply(event(.favoriteAdded(movie(Int64(n))), at: UInt64(n), time: Int64(n))) }
        let before = original.items
        var copy = original
        copy.apply(event(.favoriteAdded(tv(1)), at: 701, time: 701))
        copy.apply(event(.favoriteRemoved(movie(300)), at: 702, time: 702))
        copy.apply(event(.favoriteRemoved(movie(1)), at: 703, time: 703))
        #expect(original.items == before)
        #expect(original.contains(movie(300)) && !original.contains(tv(1)) && original.index(of: movie(700)) == 699)
        #expect(copy.count == 699 && copy.contains(tv(1)) && !copy.contains(movie(300)))
        #expect(copy.index(of: tv(1)) == 698 && copy.index(of: movie(2)) == 0)
        #expect(copy.items == before.filter { $0.key != movie(300) && $0.key != movie(1) } + [SavedItem(key: tv(1), addedAt: 701, position: 701)])
    }

    /// A list only added to (as a service's accounts grow) read from any place, across its
    /// chunks' edges, whether made title by title or from its items at once.
    @Test func aListOnlyAddedToIsReadAcrossItsChunks() {
        var list = SavedList()
        var model: [SavedItem] = []
        for n in 1...600 {
            let key = n % 3 == 0 ? tv(Int64(n)) : movie(Int64(n))
            list.apply(event(.favoriteAdded(key), at: UInt64(n), time: Int64(n)))
            model.append(SavedItem(key: key, addedAt: Int64(n), position: UInt64(n)))
        }
        for made in [list, SavedList(items: model + model.prefix(300))] {
            #expect(made.count == 600 && made.items == model)
            for start in [0, 1, 255, 256, 257, 511, 512, 513, 599, 600, 605] {
                #expect(Array(made.items(from: start)) == Array(model[min(start, 600)...]), "from \(start)")
            }
            for index in [0, 255, 256, 257, 511, 512, 599] {
                #expect(made.item(model[index].key) == model[index] && made.index(of: model[index].key) == index, "at \(index)")
            }
        }
    }

    @Test func accountDeletedClearsTheList() {
        var list = savedList([.favoriteAdded(movie(1)), .favoriteAdded(movie(2)), .accountDeleted])
        #expect(list.items.isEmpty)
        #expect(list.count == 0)
        #expect(!list.contains(movie(1)))
        #expect(list == SavedList())
        // The index is cleared too: the title can be added again.
        list.apply(event(.favoriteAdded(movie(1)), at: 9, time: 9))
        #expect(list.items.map(\.key) == [movie(1)])
    }

    @Test func otherEventsAreIgnored() {
        let list = savedList([
            .accountOpened(ann), .favoriteAdded(movie(1)), .profileNameChanged(profileName("Ann")),
            .profilePhotoChanged(photoReference(1)), .profilePhotoRemoved, .languageSwitched(languageTag("de")),
        ])
        #expect(list.items.map(\.key) == [movie(1)])
    }

    @Test func restoringFromItemsDropsDuplicatesKeepingTheFirst() {
        let items = [
            SavedItem(key: movie(1), addedAt: 1, position: 1), SavedItem(key: tv(1), addedAt: 2, position: 2),
            SavedItem(key: movie(1), addedAt: 3, position: 3),
        ]
        let list = SavedList(items: items)
        #expect(list.items == Array(items.prefix(2)))
        #expect(list.contains(movie(1)) && list.contains(tv(1)))
        var removed = list
        removed.apply(event(.favoriteRemoved(movie(1)), at: 4, time: 4))
        #expect(removed.items == [items[1]])
    }

    @Test func restoredAndReplayedListsAreEqual() {
        let replayedList = savedList([.favoriteAdded(movie(1)), .favoriteAdded(movie(2))])
        #expect(SavedList(items: replayedList.items) == replayedList)
        #expect(SavedList(items: Array(replayedList.items.reversed())) != replayedList)
    }
}

@Suite struct SettingsTests {
    @Test func defaults() {
        let s = Settings()
        #expect(s.name == nil)
        #expect(s.photo == nil)
        #expect(s.language == .default)
        #expect(s.language.value == "en-US")
    }

    @Test func appliesChanges() {
        let s = settings([
            .profileNameChanged(profileName("Ann")), .profilePhotoChanged(photoReference(1)),
            .languageSwitched(languageTag("de-DE")), .profileNameChanged(profileName("Ann Lee")),
            .profilePhotoChanged(photoReference(2)),
        ])
        #expect(s == Settings(name: profileName("Ann Lee"), photo: photoReference(2), language: languageTag("de-DE")))
    }

    @Test func photoRemoved() {
        let s = settings([.profileNameChanged(profileName("Ann")), .profilePhotoChanged(photoReference(1)), .profilePhotoRemoved])
        #expect(s.photo == nil)
        #expect(s.name == profileName("Ann"))
        // Removing when there is none is harmless.
        #expect(settings([.profilePhotoRemoved]) == Settings())
    }

    @Test func accountDeletedClearsEverything() {
        let s = settings([
            .profileNameChanged(profileName("Ann")), .profilePhotoChanged(photoReference(1)),
            .languageSwitched(languageTag("pt-BR")), .accountDeleted,
        ])
        #expect(s == Settings())
        #expect(s.language == .default)
    }

    @Test func favoritesAndOpeningAreIgnored() {
        #expect(settings([.accountOpened(ann), .favoriteAdded(movie(1)), .favoriteRemoved(movie(1))]) == Settings())
    }
}

@Suite struct AccountStateTests {
    @Test func empty() {
        let state = AccountState()
        #expect(state.handle == nil)
        #expect(state.status == .open)
        #expect(state.saved == SavedList())
        #expect(state.settings == Settings())
        #expect(state.version == 0)
        #expect(state.lastPosition == 0)
        #expect(state.openedAt == nil)
        #expect(state.deletedAt == nil)
        #expect(AccountState.replaying([]) == state)
    }

    @Test func tracksLifecyclePositionAndVersion() {
        var state = AccountState()
        state.apply(event(.accountOpened(ann), at: 7, version: 1, time: 1_000))
        #expect(state.handle == ann)
        #expect(state.openedAt == 1_000)
        #expect(state.status == .open)
        #expect(state.version == 1 && state.lastPosition == 7)

        state.apply(event(.favoriteAdded(movie(1)), at: 9, version: 2, time: 2_000))
        state.apply(event(.languageSwitched(languageTag("fr")), at: 12, version: 3, time: 3_000))
        #expect(state.saved.items == [SavedItem(key: movie(1), addedAt: 2_000, position: 9)])
        #expect(state.settings.language == languageTag("fr"))
        #expect(state.version == 3 && state.lastPosition == 12)
        #expect(state.openedAt == 1_000)

        state.apply(event(.accountDeleted, at: 20, version: 4, time: 4_000))
        #expect(state.status == .deleted)
        #expect(state.deletedAt == 4_000)
        #expect(state.saved.items.isEmpty)
        #expect(state.settings == Settings())
        #expect(state.version == 4 && state.lastPosition == 20)
        #expect(state.handle == ann)
        #expect(state.openedAt == 1_000)
    }

    @Test func skipCountsAnEventWithoutInterpretingIt() {
        var state = replayed([.accountOpened(ann), .favoriteAdded(movie(1))])
        let before = state
        state.skip(position: 40, streamVersion: 3)
        #expect(state.version == 3 && state.lastPosition == 40)
        #expect(state.saved == before.saved && state.settings == before.settings && state.handle == before.handle)
        #expect(state != before)
    }

    @Test func replayingEqualsApplyingOneByOne() {
        let events = recorded([
            .accountOpened(ann), .favoriteAdded(movie(1)), .favoriteAdded(tv(2)), .profileNameChanged(profileName("Ann")),
            .favoriteRemoved(movie(1)), .profilePhotoChanged(photoReference(3)), .languageSwitched(languageTag("pt-BR")),
            .profilePhotoRemoved, .favoriteAdded(movie(1)),
        ], firstPosition: 100)
        var incremental = AccountState()
        for e in events { incremental.apply(e) }
        let replayedState = AccountState.replaying(events)
        #expect(replayedState == incremental)
        #expect(replayedState.saved.items.map(\.key) == [tv(2), movie(1)])
        #expect(replayedState.settings == Settings(name: profileName("Ann"), photo: nil, language: languageTag("pt-BR")))
        #expect(replayedState.version == 9 && replayedState.lastPosition == 108)
        // Replaying a prefix gives the state as it was then.
        #expect(AccountState.replaying(events.prefix(2)).saved.items.map(\.key) == [movie(1)])
    }

    @Test func restoringInitialiserReproducesAReplayedState() {
        let state = replayed([.accountOpened(ann), .favoriteAdded(movie(5)), .accountDeleted])
        let restored = AccountState(
            handle: state.handle, status: state.status, saved: state.saved, settings: state.settings, version: state.version,
            lastPosition: state.lastPosition, openedAt: state.openedAt, deletedAt: state.deletedAt)
        #expect(restored == state)
        let differentlyTimed = AccountState(
            handle: state.handle, status: state.status, saved: state.saved, settings: state.settings, version: state.version,
            lastPosition: state.lastPosition, openedAt: state.openedAt, deletedAt: (state.deletedAt ?? 0) + 1)
        #expect(differentlyTimed != state)
    }
}

@Suite struct AsOfTests {
    @Test func positionIsInclusive() {
        let asOf = AsOf.position(10)
        #expect(asOf.admits(position: 9, streamVersion: 99, recordedAt: .max))
        #expect(asOf.admits(position: 10, streamVersion: 99, recordedAt: .max))
        #expect(!asOf.admits(position: 11, streamVersion: 1, recordedAt: 0))
        #expect(AsOf.position(0).admits(position: 0, streamVersion: 0, recordedAt: 0))
        #expect(!AsOf.position(0).admits(position: 1, streamVersion: 0, recordedAt: 0))
    }

    @Test func streamVersionIsInclusive() {
        let asOf = AsOf.streamVersion(3)
        #expect(asOf.admits(position: 1_000, streamVersion: 3, recordedAt: .max))
        #expect(asOf.admits(position: 1_000, streamVersion: 1, recordedAt: .max))
        #expect(!asOf.admits(position: 1, streamVersion: 4, recordedAt: 0))
    }

    @Test func timeIsInclusive() {
        let asOf = AsOf.time(baseTime)
        #expect(asOf.admits(position: .max, streamVersion: .max, recordedAt: baseTime))
        #expect(asOf.admits(position: .max, streamVersion: .max, recordedAt: baseTime - 1))
        #expect(!asOf.admits(position: 1, streamVersion: 1, recordedAt: baseTime + 1))
        #expect(AsOf.time(-5).admits(position: 1, streamVersion: 1, recordedAt: -5))
        #expect(!AsOf.time(-5).admits(position: 1, streamVersion: 1, recordedAt: 0))
    }

    @Test func viewAsOfAPointIsTheReplayUpToAndIncludingIt() {
        let events = recorded([.accountOpened(ann), .favoriteAdded(movie(1)), .favoriteAdded(movie(2)), .favoriteRemoved(movie(1))])
        func view(_ asOf: AsOf) -> [MediaKey] {
            AccountState.replaying(events.filter { asOf.admits(position: $0.position, streamVersion: $0.streamVersion, recordedAt: $0.recordedAt) })
                .saved.items.map(\.key)
        }
        #expect(view(.position(2)) == [movie(1)])
        #expect(view(.streamVersion(3)) == [movie(1), movie(2)])
        #expect(view(.time(events[3].recordedAt)) == [movie(2)])
        #expect(view(.time(events[3].recordedAt - 1)) == [movie(1), movie(2)])
        #expect(view(.position(0)).isEmpty)
    }

    @Test func descriptions() {
        #expect(AsOf.position(5).description == "position 5")
        #expect(AsOf.streamVersion(2).description == "stream version 2")
        #expect(AsOf.time(7).description == "1970-01-01T00:00:00.000007Z")
        #expect(AsOf.time(baseTime).description == "2023-11-14T22:13:20.000000Z")
    }
}

/// A slow, obviously right civil calendar: step years, then months, from 1970-01-01.
private func referenceISO(_ micros: Int64) -> String {
    var seconds = micros / 1_000_000
    var fraction = micros % 1_000_000
    if fraction < 0 {
        fraction += 1_000_000
        seconds -= 1
    }
    var days = seconds / 86_400
    var rest = seconds % 86_400
    if rest < 0 {
        rest += 86_400
        days -= 1
    }
    func isLeap(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    func length(_ y: Int64) -> Int64 { isLeap(y) ? 366 : 365 }
    var year: Int64 = 1970
    while days < 0 {
        year -= 1
        days += length(year)
    }
    while days >= length(year) {
        days -= length(year)
        year += 1
    }
    let months: [Int64] = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    var month = 0
    while days >= months[month] {
        days -= months[month]
        month += 1
    }
    func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    return "\(pad(year, 4))-\(pad(Int64(month + 1), 2))-\(pad(days + 1, 2))T\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2))"
        + ":\(pad(rest % 60, 2)).\(pad(fraction, 6))Z"
}

@Suite struct UTCTimeTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000000Z"),
        (-1, "1969-12-31T23:59:59.999999Z"),
        (1, "1970-01-01T00:00:00.000001Z"),
        (-1_000_000, "1969-12-31T23:59:59.000000Z"),
        (1_700_000_000_123_456, "2023-11-14T22:13:20.123456Z"),
        (1_709_164_800_000_000, "2024-02-29T00:00:00.000000Z"),
        (1_709_251_199_999_999, "2024-02-29T23:59:59.999999Z"),
        (951_868_800_000_000, "2000-03-01T00:00:00.000000Z"),
        (951_782_400_000_000, "2000-02-29T00:00:00.000000Z"),
        (4_107_542_400_000_000, "2100-03-01T00:00:00.000000Z"),
        (-2_208_988_800_000_000, "1900-01-01T00:00:00.000000Z"),
        (253_402_300_799_999_999, "9999-12-31T23:59:59.999999Z"),
        (-62_135_596_800_000_000, "0001-01-01T00:00:00.000000Z"),
    ])
    func knownInstants(_ micros: Int64, _ iso: String) {
        #expect(UTCTime.iso(micros) == iso)
        #expect(referenceISO(micros) == iso)
    }

    @Test func parseReadsWhatIsoWritesAndRefusesDaysTheMonthDoesNotHave() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<400 {
            let micros = Int64.random(in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &rng)
            #expect(UTCTime.parse(UTCTime.iso(micros)) == micros, "\(micros)")
        }
        #expect(UTCTime.parse("2024-02-29T00:00:00Z") == 1_709_164_800_000_000)
        #expect(UTCTime.parse("2000-02-29T00:00:00.5Z") == 951_782_400_500_000)
        for invalid in [
            "2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-02-31T00:00:00Z", "2026-04-31T00:00:00Z",
            "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T10:00:00+01:00",
            "2026-11-21T10:00:00.1234567Z", "2026-11-21 10:00:00Z",
        ] {
            #expect(UTCTime.parse(invalid) == nil, "\(invalid)")
        }
    }

    @Test func agreesWithAStepByStepCalendar() {
        var rng = SplitMix64(seed: 2026)
        for _ in 0..<400 {
            let micros = Int64.random(in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &rng)
            #expect(UTCTime.iso(micros) == referenceISO(micros), "\(micros)")
        }
        // Around every midnight of a leap-year February and March.
        for day in Int64(19_780)...19_815 {
            for micros in [day * 86_400_000_000 - 1, day * 86_400_000_000] {
                #expect(UTCTime.iso(micros) == referenceISO(micros), "\(micros)")
            }
        }
    }
}
