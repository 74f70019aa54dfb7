import Reel
import ReelApp
import Testing

/// Time travel on the Saved tab: `[` and `]` step through the stream versions with the as-of
/// line, `t` jumps to a typed version, position, date or time, `esc` comes back to now, and
/// `h` lists the history.
@Suite struct TimeTravelTests {
    typealias Saved = SavedUpdateTests

    static func asOf(_ version: UInt64?) -> AppEffect { .saved(.load(SavedRequest(asOf: version))) }

    @Test func bracketsStepBackThroughEveryVersionAndForwardToNow() {
        var model = Saved.loaded()
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("["))
        #expect(model.saved.request.asOf == 5 && effects == [Self.asOf(5)], "from now (v6), the version before it")
        (model, _) = AppUpdate.update(model, .saved(.loaded(SavedRequest(asOf: 5), rows: [Saved.club, Saved.amelie], total: 2, language: "en", account: "ann")))
        let lines = AppView.draw(model).lines()
        #expect(lines[2] == " as of v5 — 2026-11-25 07:24 — removed movie 603 The Matrix (1999)  esc: now", "\(lines[2])")
        #expect(lines[3] == "", "the keys' second line stays empty, so the list does not move")
        #expect(lines[5].contains("Fight Club") && lines[6].contains("Amélie") && lines[7] == "", "the list exactly as it was: \(lines)")
        // Back to the first version, no further; forward again to now.
        (model, effects) = AppUpdateTests.type(model, .character("["), .character("["), .character("["), .character("["), .character("["))
        #expect(model.saved.request.asOf == 1 && model.status.note == "v1 is the account's first version")
        (model, _) = AppUpdateTests.type(model, .character("]"), .character("]"), .character("]"), .character("]"))
        #expect(model.saved.request.asOf == 5)
        (model, _) = AppUpdateTests.type(model, .character("]"))
        #expect(model.saved.request.asOf == nil, "the newest version is now")
        (model, effects) = AppUpdateTests.type(model, .character("]"))
        #expect(effects.isEmpty && model.status.note == "this is now; [ steps back through the history")
    }

    @Test func escComesBackToNowAndXIsRefusedInThePast() {
        var model = AppUpdateTests.type(Saved.loaded(), .character("["), .character("[")).0
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("x"))
        #expect(effects.isEmpty && model.status.lastError == "x removes from the list as it is now; esc comes back to now")
        (model, _) = AppUpdateTests.type(model, .escape)
        #expect(model.saved.request.asOf == nil)
    }

    @Test func tJumpsToATypedVersionPositionDateOrTime() {
        func go(_ text: String) -> AppModel {
            var model = AppUpdateTests.type(Saved.loaded(), .character("t")).0
            for c in text { model = AppUpdateTests.type(model, .character(c)).0 }
            return AppUpdateTests.type(model, .enter).0
        }
        #expect(go("v3").saved.request.asOf == 3)
        #expect(go("42").saved.request.asOf == 4, "position 42: the last event at or before it is v4 (position 40)")
        #expect(go("2026-11-23").saved.request.asOf == 3, "a date: the end of that day")
        #expect(go("2026-11-24 07:23").saved.request.asOf == 3, "a minute before v4")
        #expect(go("2026-11-24 07:24").saved.request.asOf == 4, "that minute, to its end")
        #expect(go("v9").status.lastError == "the account has reached v6; v9 is past its end")
        #expect(go("2026-11-01").status.lastError == "the account had no events at 2026-11-01 or before")
        #expect(go("yesterday").status.lastError == TypedPoint.expected)
        #expect(go("2026-02-30").status.lastError == TypedPoint.expected)
        // The field shows what is typed; esc closes it with nothing done.
        var model = AppUpdateTests.type(Saved.loaded(), .character("t"), .character("v"), .character("2")).0
        #expect(AppView.draw(model).lines()[2] == " go to (v12, a position, 2026-11-24 07:24): v2▏")
        model = AppUpdateTests.type(model, .escape).0
        #expect(model.saved.typing == nil && model.saved.request.asOf == nil)
    }

    @Test func hListsTheHistoryAndEnterShowsTheListAtALine() {
        var model = AppUpdateTests.type(Saved.loaded(), .character("h")).0
        let lines = AppView.draw(model).lines()
        #expect(lines[1].hasSuffix("6 events"))
        #expect(lines[4] == "›   v1  2026-11-21 07:24  opened the account 'ann'")
        #expect(lines[8] == "    v5  2026-11-25 07:24  removed movie 603 The Matrix (1999)")
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("j"), .character("j"), .enter)
        #expect(!model.saved.showsHistory && model.saved.request.asOf == 3 && effects == [Self.asOf(3)])
        // Open again: the version shown is marked.
        model = AppUpdateTests.type(model, .character("h")).0
        #expect(AppView.draw(model).lines()[6] == "› ● v3  2026-11-23 07:24  added movie 603 The Matrix (1999)")
        #expect(!AppUpdateTests.type(model, .escape).0.saved.showsHistory)
        // x waits for the list to show: nothing is removed unseen.
        #expect(AppUpdateTests.type(AppUpdateTests.type(model, .escape, .escape).0, .character("h"), .character("x")).1.isEmpty)
    }
}
