import Foundation
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

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
        _ = try await app.addFavorites([fightClub, try MediaKey(.movie, 999_999)], for: ann)
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
}
