import Foundation
import Ledger
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

/// How long a saved list holds (`ReadValidity`), for front ends that keep answers, and the
/// account views a long-lived process keeps: a change by this process or another ends both.
@Suite struct ReadValidityTests {
    let ann = try! AccountHandle("ann")
    let fightClub = try! MediaKey(.movie, 550)
    let matrix = try! MediaKey(.movie, 603)

    static func application(_ directory: String, _ name: String) -> Application {
        Application(.init(dataDirectory: directory, offline: false, environment: ["HOME": temporaryDirectory(name + "-home")]) { _ in })
    }

    @Test func aCompleteListHoldsUntilTheAccountChanges() async throws {
        let app = Self.application(temporaryDirectory(), #function)
        _ = try await app.addFavorites([fightClub], for: ann)
        let list = try await app.savedList(of: ann, SavedListQuery())
        let validity = try #require(list.validity)
        #expect(validity.until == .max)  // the sample's facts never go stale
        #expect(validity.stream == list.stream)
        #expect(try app.stillHolds(validity, for: ann))
        #expect(try app.stillHolds(validity, for: try AccountHandle("bob")) == false)

        _ = try await app.addFavorites([matrix], for: ann)
        #expect(try app.stillHolds(validity, for: ann) == false)
        let again = try #require(try await app.savedList(of: ann, SavedListQuery()).validity)
        #expect(try app.stillHolds(again, for: ann))
        #expect(again.streamVersion == validity.streamVersion + 1)
        await app.close()
    }

    @Test func anotherProcesssChangeEndsTheListAndTheKeptView() async throws {
        let directory = temporaryDirectory()
        let service = Self.application(directory, #function + "-a")
        _ = try await service.addFavorites([fightClub], for: ann)
        let validity = try #require(try await service.savedList(of: ann, SavedListQuery()).validity)
        #expect(try service.account(ann).state.saved.items.map(\.key) == [fightClub])

        let shell = Self.application(directory, #function + "-b")
        _ = try await shell.addFavorites([matrix], for: ann)
        await shell.close()

        #expect(try service.stillHolds(validity, for: ann) == false)
        #expect(try service.account(ann).state.saved.items.map(\.key) == [fightClub, matrix])
        #expect(try await service.savedList(of: ann, SavedListQuery()).items.map(\.saved.key) == [fightClub, matrix])
        await service.close()
    }

    @Test func aListWithDetailsMissingHoldsForNoTime() async throws {
        let app = Self.application(temporaryDirectory(), #function)
        // An id the catalog lacks, as if TMDb lost it after it was saved (the use case refuses it).
        _ = try app.change(.addFavorites([fightClub, try MediaKey(.movie, 999_999)]), for: ann)
        let list = try await app.savedList(of: ann, SavedListQuery())
        #expect(list.detailsMissing == 1)
        #expect(list.validity == nil)
        // Filtered down to titles with details, it is complete.
        #expect(try await app.savedList(of: ann, SavedListQuery(search: "fight")).validity != nil)
        await app.close()
    }

    @Test func anAccountDeletedAndOpenedAgainIsAnotherStream() async throws {
        let app = Self.application(temporaryDirectory(), #function)
        _ = try await app.addFavorites([fightClub], for: ann)
        let validity = try #require(try await app.savedList(of: ann, SavedListQuery()).validity)
        _ = try app.deleteAccount(ann)
        #expect(try app.stillHolds(validity, for: ann) == false)
        _ = try await app.addFavorites([fightClub], for: ann)
        let reopened = try app.readStamp(of: ann)
        #expect(reopened.stream != validity.stream)
        #expect(try app.stillHolds(validity, for: ann) == false)
        await app.close()
    }

    /// A token of an account deleted and opened again by another process reaches nothing, even
    /// while this process keeps a view of the account the handle has now.
    @Test func aKeptViewOfTheNewAccountLetsNoOldTokenThrough() async throws {
        let directory = temporaryDirectory()
        let app = Self.application(directory, #function)
        let old = try app.createToken(for: ann).token
        #expect(try app.reachesItsAccount(old))
        let other = Self.application(directory, #function + "-other")
        _ = try other.deleteAccount(ann)
        let new = try other.createToken(for: ann).token
        await other.close()
        #expect(new.stream != old.stream)
        _ = try app.account(ann)
        _ = try app.account(ann)
        #expect(try app.reachesItsAccount(new))
        #expect(try app.reachesItsAccount(old) == false)
        await app.close()
    }
}

/// The states of accounts changed lately (`AccountStates`): a command is decided on the committed
/// state kept, and never on one its stream has moved past.
@Suite struct AccountStatesTests {
    let ann = try! AccountHandle("ann")

    @Test func commandsAreDecidedOnTheStateKeptOnlyWhileItIsCurrent() async throws {
        let directory = temporaryDirectory()
        let service = try AccountService.open(at: directory)
        let keys = try (1...3).map { try MediaKey(.movie, Int64($0)) }
        _ = try service.execute(.addFavorites([keys[0]]), for: ann)
        let stream = try service.resolve(ann)
        let kept = try #require(service.states.state(of: stream, atVersion: try service.log.version(of: stream)))
        #expect(kept.saved.items.map(\.key) == [keys[0]])

        // Another process appends: the kept state is behind, and the next command sees the change.
        let other = try AccountService.open(at: directory)
        _ = try other.execute(.addFavorites([keys[1]]), for: ann)
        #expect(service.states.state(of: stream, atVersion: try service.log.version(of: stream)) == nil)
        let report = try service.execute(.addFavorites([keys[1], keys[2]]), for: ann)
        #expect(report.appended.map(\.event) == [.favoriteAdded(keys[2])])
        #expect(try service.view(of: ann).state.saved.items.map(\.key) == keys)
        #expect(service.states.state(of: stream, atVersion: try service.log.version(of: stream))?.saved.count == 3)

        // A deleted account's state is not kept.
        _ = try service.execute(.deleteAccount, for: ann)
        #expect(service.states.state(of: stream, atVersion: try service.log.version(of: stream)) == nil)
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
    }
}
