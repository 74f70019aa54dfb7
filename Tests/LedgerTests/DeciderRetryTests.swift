import Ledger
import Testing

/// A retry's decision read back from the events its first request appended
/// (`Decider.decision(of:for:appended:)`); agreement with `decide` on random commands is checked
/// by `DeciderPropertyTests`.
@Suite struct DeciderRetryTests {
    let ann = accountHandle("ann")

    @Test func itemsWithoutAnEventAreWhatTheFirstAnswerSaidOfThem() throws {
        let state = replayed([.accountOpened(ann), .favoriteAdded(movie(1))])
        let add = Command.addFavorites([movie(1), movie(2), movie(1)])
        let first = try Decider.decide(add, for: ann, state: state)
        #expect(first.outcomes == [.alreadySaved(movie(1)), .favoriteAdded(movie(2))])
        #expect(Decider.decision(of: add, for: ann, appended: first.events) == first)

        let remove = Command.removeFavorites([movie(3), movie(1)])
        let removed = try Decider.decide(remove, for: ann, state: state)
        #expect(Decider.decision(of: remove, for: ann, appended: removed.events)?.outcomes == [.notSaved(movie(3)), .favoriteRemoved(movie(1))])
    }

    @Test func anOpeningIsReadBackWithTheChangeThatMadeIt() throws {
        let first = try Decider.decide(.rename(profileName("Ann")), for: ann, state: nil)
        #expect(Decider.decision(of: .rename(profileName("Ann")), for: ann, appended: first.events)?.outcomes == [
            .accountOpened(ann), .nameChanged(profileName("Ann")),
        ])
    }

    /// The key was used for another request: its events are not what this command appends.
    @Test func eventsThisCommandCouldNotHaveAppendedAreRefused() {
        let added: [DomainEvent] = [.favoriteAdded(movie(1))]
        #expect(Decider.decision(of: .addFavorites([movie(2)]), for: ann, appended: added) == nil)
        #expect(Decider.decision(of: .removeFavorites([movie(1)]), for: ann, appended: added) == nil)
        #expect(Decider.decision(of: .rename(profileName("Ann")), for: ann, appended: added) == nil)
        #expect(Decider.decision(of: .deleteAccount, for: ann, appended: added) == nil)
        // Out of order, or one event too many.
        let two: [DomainEvent] = [.favoriteAdded(movie(2)), .favoriteAdded(movie(1))]
        #expect(Decider.decision(of: .addFavorites([movie(1), movie(2)]), for: ann, appended: two) == nil)
        #expect(Decider.decision(of: .addFavorites([movie(1)]), for: ann, appended: two) == nil)
        // Another account's opening, an opening alone, nothing at all.
        #expect(Decider.decision(of: .addFavorites([movie(1)]), for: ann, appended: [.accountOpened(accountHandle("ben"))] + added) == nil)
        #expect(Decider.decision(of: .addFavorites([movie(1)]), for: ann, appended: [.accountOpened(ann)]) == nil)
        #expect(Decider.decision(of: .addFavorites([movie(1)]), for: ann, appended: []) == nil)
        #expect(Decider.decision(of: .switchLanguage(languageTag("de-DE")), for: ann, appended: [.languageSwitched(languageTag("fr"))]) == nil)
    }
}
