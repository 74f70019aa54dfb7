import Ledger
import Testing

private let ann = accountHandle("ann")

/// An open account for `ann` after `events` (accountOpened is put first).
private func openAccount(_ events: [DomainEvent] = []) -> AccountState {
    replayed([.accountOpened(ann)] + events)
}

@Suite struct DeciderNewAccountTests {
    @Test func firstCommandOpensTheAccount() throws {
        let decision = try Decider.decide(.addFavorites([movie(550)]), for: ann, state: nil)
        #expect(decision.events == [.accountOpened(ann), .favoriteAdded(movie(550))])
        #expect(decision.outcomes == [.accountOpened(ann), .favoriteAdded(movie(550))])
        #expect(!decision.changesNothing)
    }

    @Test(arguments: [
        (Command.rename(profileName("Ann")), DomainEvent.profileNameChanged(profileName("Ann")), Outcome.nameChanged(profileName("Ann"))),
        (.changePhoto(photoReference(1)), .profilePhotoChanged(photoReference(1)), .photoChanged(photoReference(1))),
        (.switchLanguage(languageTag("de-DE")), .languageSwitched(languageTag("de-DE")), .languageSwitched(languageTag("de-DE"))),
        (.addFavorites([tv(1399)]), .favoriteAdded(tv(1399)), .favoriteAdded(tv(1399))),
    ])
    func everyChangingCommandOpensANewAccountFirst(_ command: Command, _ event: DomainEvent, _ outcome: Outcome) throws {
        let decision = try Decider.decide(command, for: ann, state: nil)
        #expect(decision.events == [.accountOpened(ann), event])
        #expect(decision.outcomes == [.accountOpened(ann), outcome])
    }

    @Test(arguments: [
        (Command.addFavorites([]), [Outcome]()),
        (.removeFavorites([]), []),
        (.removeFavorites([movie(550)]), [.notSaved(movie(550))]),
        (.removeFavorites([movie(1), tv(1), movie(1)]), [.notSaved(movie(1)), .notSaved(tv(1))]),
        (.removePhoto, [.noPhotoToRemove]),
        (.switchLanguage(.default), [.languageUnchanged(.default)]),
        (.switchLanguage(languageTag("en-US")), [.languageUnchanged(languageTag("en-US"))]),
        (.deleteAccount, [.noAccount(ann)]),
    ])
    func aCommandThatChangesNothingDoesNotOpenTheAccount(_ command: Command, _ outcomes: [Outcome]) throws {
        let decision = try Decider.decide(command, for: ann, state: nil)
        #expect(decision.events.isEmpty)
        #expect(decision.changesNothing)
        #expect(decision.outcomes == outcomes)
    }

    @Test func theAccountIsOpenedForTheHandleAsked() throws {
        let ben = accountHandle("ben.b")
        let decision = try Decider.decide(.rename(profileName("Ben")), for: ben, state: nil)
        #expect(decision.events.first == .accountOpened(ben))
    }

    @Test func anOpenAccountIsNotOpenedAgain() throws {
        let decision = try Decider.decide(.addFavorites([movie(1)]), for: ann, state: openAccount())
        #expect(decision.events == [.favoriteAdded(movie(1))])
        #expect(decision.outcomes == [.favoriteAdded(movie(1))])
    }
}

@Suite struct DeciderOpenAccountTests {
    @Test func aNewHandleIsOpenedAndNothingElse() throws {
        let decision = try Decider.decide(.openAccount, for: ann, state: nil)
        #expect(decision.events == [.accountOpened(ann)])
        #expect(decision.outcomes == [.accountOpened(ann)])
        #expect(!decision.changesNothing)
    }

    @Test func anOpenAccountIsLeftAsItIsAndSaysSo() throws {
        for state in [openAccount(), openAccount([.favoriteAdded(movie(1)), .profileNameChanged(profileName("Ann"))])] {
            let decision = try Decider.decide(.openAccount, for: ann, state: state)
            #expect(decision.events.isEmpty)
            #expect(decision.outcomes == [.accountExists(ann)])
            #expect(decision.changesNothing)
        }
    }

    @Test func theOutcomeOfAnOpenAccount() {
        #expect(Outcome.accountExists(ann).kind == "account-exists")
        #expect(!Outcome.accountExists(ann).changed)
        #expect(Outcome.accountExists(ann).mediaKey == nil)
        #expect(Outcome.accountExists(ann).message == "the account 'ann' is open already; nothing to do")
    }
}

@Suite struct DeciderFavoritesTests {
    @Test func addingWhatIsSavedAppendsNothing() throws {
        let state = openAccount([.favoriteAdded(movie(550))])
        let decision = try Decider.decide(.addFavorites([movie(550)]), for: ann, state: state)
        #expect(decision.events.isEmpty)
        #expect(decision.outcomes == [.alreadySaved(movie(550))])
    }

    @Test func addingAMixKeepsTheOrderGiven() throws {
        let state = openAccount([.favoriteAdded(movie(1))])
        let decision = try Decider.decide(.addFavorites([movie(2), movie(1), tv(1)]), for: ann, state: state)
        #expect(decision.events == [.favoriteAdded(movie(2)), .favoriteAdded(tv(1))])
        #expect(decision.outcomes == [.favoriteAdded(movie(2)), .alreadySaved(movie(1)), .favoriteAdded(tv(1))])
    }

    @Test func removingWhatIsNotSavedAppendsNothing() throws {
        let state = openAccount([.favoriteAdded(movie(1))])
        let decision = try Decider.decide(.removeFavorites([movie(2)]), for: ann, state: state)
        #expect(decision.events.isEmpty)
        #expect(decision.outcomes == [.notSaved(movie(2))])
    }

    @Test func removingWhatIsSaved() throws {
        let state = openAccount([.favoriteAdded(movie(1)), .favoriteAdded(tv(1))])
        let decision = try Decider.decide(.removeFavorites([tv(1), movie(3), movie(1)]), for: ann, state: state)
        #expect(decision.events == [.favoriteRemoved(tv(1)), .favoriteRemoved(movie(1))])
        #expect(decision.outcomes == [.favoriteRemoved(tv(1)), .notSaved(movie(3)), .favoriteRemoved(movie(1))])
    }

    @Test func aRemovedFavoriteIsNotSavedAnyMore() throws {
        let state = openAccount([.favoriteAdded(movie(1)), .favoriteRemoved(movie(1))])
        #expect(try Decider.decide(.removeFavorites([movie(1)]), for: ann, state: state).outcomes == [.notSaved(movie(1))])
        #expect(try Decider.decide(.addFavorites([movie(1)]), for: ann, state: state).events == [.favoriteAdded(movie(1))])
    }

    @Test func duplicateIDsInOneCommandAreDeduplicated() throws {
        let added = try Decider.decide(.addFavorites([movie(1), movie(1), movie(2), movie(1), movie(2)]), for: ann, state: nil)
        #expect(added.events == [.accountOpened(ann), .favoriteAdded(movie(1)), .favoriteAdded(movie(2))])
        #expect(added.outcomes == [.accountOpened(ann), .favoriteAdded(movie(1)), .favoriteAdded(movie(2))])

        let state = openAccount([.favoriteAdded(movie(1))])
        let again = try Decider.decide(.addFavorites([movie(1), movie(1)]), for: ann, state: state)
        #expect(again.events.isEmpty)
        #expect(again.outcomes == [.alreadySaved(movie(1))])

        let removed = try Decider.decide(.removeFavorites([movie(1), movie(1), movie(9), movie(9)]), for: ann, state: state)
        #expect(removed.events == [.favoriteRemoved(movie(1))])
        #expect(removed.outcomes == [.favoriteRemoved(movie(1)), .notSaved(movie(9))])
    }

    @Test func sameIDDifferentMediaTypeAreDifferentTitles() throws {
        let state = openAccount([.favoriteAdded(movie(1399))])
        let decision = try Decider.decide(.addFavorites([tv(1399), movie(1399)]), for: ann, state: state)
        #expect(decision.events == [.favoriteAdded(tv(1399))])
        #expect(decision.outcomes == [.favoriteAdded(tv(1399)), .alreadySaved(movie(1399))])
    }
}

@Suite struct DeciderSettingsTests {
    @Test func renameUnchanged() throws {
        let state = openAccount([.profileNameChanged(profileName("Ann"))])
        let same = try Decider.decide(.rename(profileName("Ann")), for: ann, state: state)
        #expect(same.events.isEmpty)
        #expect(same.outcomes == [.nameUnchanged(profileName("Ann"))])
        let other = try Decider.decide(.rename(profileName("Ann Lee")), for: ann, state: state)
        #expect(other.events == [.profileNameChanged(profileName("Ann Lee"))])
        #expect(other.outcomes == [.nameChanged(profileName("Ann Lee"))])
    }

    @Test func renameOfAnAccountWithoutAName() throws {
        let decision = try Decider.decide(.rename(profileName("Ann")), for: ann, state: openAccount())
        #expect(decision.events == [.profileNameChanged(profileName("Ann"))])
    }

    @Test func photoUnchanged() throws {
        let photo = photoReference(7)
        let state = openAccount([.profilePhotoChanged(photo)])
        let same = try Decider.decide(.changePhoto(photoReference(7)), for: ann, state: state)
        #expect(same.events.isEmpty)
        #expect(same.outcomes == [.photoUnchanged])

        let other = try Decider.decide(.changePhoto(photoReference(8)), for: ann, state: state)
        #expect(other.events == [.profilePhotoChanged(photoReference(8))])
        #expect(other.outcomes == [.photoChanged(photoReference(8))])

        // Same bytes hash but different metadata is a different reference.
        let resized = photoReference(7, width: 1, height: 1)
        #expect(try Decider.decide(.changePhoto(resized), for: ann, state: state).events == [.profilePhotoChanged(resized)])
    }

    @Test func removePhoto() throws {
        let withPhoto = openAccount([.profilePhotoChanged(photoReference(1))])
        let removed = try Decider.decide(.removePhoto, for: ann, state: withPhoto)
        #expect(removed.events == [.profilePhotoRemoved])
        #expect(removed.outcomes == [.photoRemoved])

        let withoutPhoto = openAccount([.profilePhotoChanged(photoReference(1)), .profilePhotoRemoved])
        let nothing = try Decider.decide(.removePhoto, for: ann, state: withoutPhoto)
        #expect(nothing.events.isEmpty)
        #expect(nothing.outcomes == [.noPhotoToRemove])
    }

    @Test func languageUnchanged() throws {
        let fresh = try Decider.decide(.switchLanguage(languageTag("en-US")), for: ann, state: openAccount())
        #expect(fresh.events.isEmpty)
        #expect(fresh.outcomes == [.languageUnchanged(languageTag("en-US"))])

        let state = openAccount([.languageSwitched(languageTag("pt-BR"))])
        let same = try Decider.decide(.switchLanguage(languageTag("pt-BR")), for: ann, state: state)
        #expect(same.events.isEmpty)
        #expect(same.outcomes == [.languageUnchanged(languageTag("pt-BR"))])

        let back = try Decider.decide(.switchLanguage(.default), for: ann, state: state)
        #expect(back.events == [.languageSwitched(.default)])
        #expect(back.outcomes == [.languageSwitched(.default)])

        // "pt" and "pt-BR" are different tags.
        #expect(try Decider.decide(.switchLanguage(languageTag("pt")), for: ann, state: state).events.count == 1)
    }
}

@Suite struct DeciderDeletionTests {
    @Test func deletingAnOpenAccount() throws {
        let decision = try Decider.decide(.deleteAccount, for: ann, state: openAccount([.favoriteAdded(movie(1))]))
        #expect(decision.events == [.accountDeleted])
        #expect(decision.outcomes == [.accountDeleted(ann)])
    }

    static let everyKindOfCommand: [Command] = [
        .addFavorites([movie(1)]), .addFavorites([]), .removeFavorites([movie(1)]), .rename(profileName("Ann")),
        .changePhoto(photoReference(1)), .removePhoto, .switchLanguage(languageTag("de-DE")), .switchLanguage(.default),
        .deleteAccount, .openAccount,
    ]

    @Test(arguments: everyKindOfCommand)
    func aDeletedAccountAcceptsNothing(_ command: Command) {
        let deleted = openAccount([.favoriteAdded(movie(1)), .accountDeleted])
        #expect(deleted.status == .deleted)
        #expect(throws: DomainError.accountDeleted("ann")) { try Decider.decide(command, for: ann, state: deleted) }
    }

    @Test func deletionIsRefusedEvenForADifferentlyNamedHandle() {
        // The error names the handle the command was for.
        let deleted = openAccount([.accountDeleted])
        let ben = accountHandle("ben")
        #expect(throws: DomainError.accountDeleted("ben")) { try Decider.decide(.removePhoto, for: ben, state: deleted) }
    }
}

@Suite struct DecisionAndOutcomeTests {
    /// Applying a decision and then deciding the same command again changes nothing.
    @Test(arguments: DeciderDeletionTests.everyKindOfCommand.filter { $0 != .deleteAccount })
    func decidingTwiceIsIdempotent(_ command: Command) throws {
        for start in [nil, openAccount([.favoriteAdded(movie(1)), .profilePhotoChanged(photoReference(1))])] {
            let first = try Decider.decide(command, for: ann, state: start)
            let history = (start == nil ? [] : [DomainEvent.accountOpened(ann), .favoriteAdded(movie(1)), .profilePhotoChanged(photoReference(1))])
                + first.events
            let after: AccountState? = history.isEmpty ? nil : replayed(history)
            let second = try Decider.decide(command, for: ann, state: after)
            #expect(second.events.isEmpty, "\(command) from \(String(describing: start))")
            #expect(second.outcomes.allSatisfy { !$0.changed })
        }
    }

    @Test func outcomesThatChangeMatchTheEventsOneForOne() throws {
        let state = openAccount([.favoriteAdded(movie(1))])
        let decision = try Decider.decide(.addFavorites([movie(1), movie(2), movie(3)]), for: ann, state: state)
        #expect(decision.outcomes.filter(\.changed).count == decision.events.count)
        #expect(decision.outcomes.map(\.changed) == [false, true, true])
    }

    @Test func changed() {
        let changing: [Outcome] = [
            .accountOpened(ann), .favoriteAdded(movie(1)), .favoriteRemoved(movie(1)), .nameChanged(profileName("A")),
            .photoChanged(photoReference(1)), .photoRemoved, .languageSwitched(.default), .accountDeleted(ann),
        ]
        let notChanging: [Outcome] = [
            .alreadySaved(movie(1)), .notSaved(movie(1)), .nameUnchanged(profileName("A")), .photoUnchanged, .noPhotoToRemove,
            .languageUnchanged(.default), .noAccount(ann), .accountExists(ann),
        ]
        #expect(changing.allSatisfy { $0.changed })
        #expect(!notChanging.contains { $0.changed })
        let kinds = (changing + notChanging).map(\.kind)
        #expect(Set(kinds).count == kinds.count)
        #expect(kinds == [
            "account-opened", "favorite-added", "favorite-removed", "name-changed", "photo-changed", "photo-removed",
            "language-switched", "account-deleted", "already-saved", "not-saved", "name-unchanged", "photo-unchanged", "no-photo",
            "language-unchanged", "no-account", "account-exists",
        ])
    }

    @Test func mediaKeyOfOutcomes() {
        #expect(Outcome.favoriteAdded(movie(1)).mediaKey == movie(1))
        #expect(Outcome.alreadySaved(tv(2)).mediaKey == tv(2))
        #expect(Outcome.favoriteRemoved(movie(3)).mediaKey == movie(3))
        #expect(Outcome.notSaved(tv(4)).mediaKey == tv(4))
        #expect(Outcome.photoRemoved.mediaKey == nil)
        #expect(Outcome.accountOpened(ann).mediaKey == nil)
    }

    @Test func messages() {
        #expect(Outcome.favoriteAdded(movie(550)).message == "added movie 550")
        #expect(Outcome.alreadySaved(movie(550)).message == "movie 550 is already saved; nothing to do")
        #expect(Outcome.notSaved(tv(1)).message == "tv 1 is not saved; nothing to do")
        #expect(Outcome.languageSwitched(languageTag("de-DE")).message == "language set to de-DE (German)")
        #expect(Outcome.noAccount(ann).message == "there is no account 'ann'; nothing to do")
        #expect(Outcome.photoChanged(photoReference(1, bytes: 10, width: 3, height: 4)).message == "photo set (3x4, 10 bytes)")
        #expect(Outcome.photoChanged(photoReference(1, bytes: 4_500_085, width: 3, height: 4)).message == "photo set (3x4, 4,500,085 bytes)")
    }
}
