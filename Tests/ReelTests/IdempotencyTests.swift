import EventLog
import Failures
import Foundation
import Ledger
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

/// Idempotency keys: a change made under a key appends once; a retry under the same key appends
/// nothing and answers with the first request's report, across restarts too.
@Suite struct IdempotencyTests {
    let ann = try! AccountHandle("ann")
    let ben = try! AccountHandle("ben")
    let fightClub = try! MediaKey(.movie, 550)
    let matrix = try! MediaKey(.movie, 603)

    static func application(_ name: String = #function, dataDirectory: String? = nil) -> Application {
        Application(.init(dataDirectory: dataDirectory ?? temporaryDirectory(name), environment: ["HOME": temporaryDirectory(name + "-home")]))
    }

    @Test func theSameKeyTwiceAppendsOnceAndTheRetryIsTheFirstReport() async throws {
        let app = Self.application()
        let first = try await app.addFavorites([fightClub], for: ann, requestKey: "req-1")
        #expect(first.changed && !first.replayed)
        let retry = try await app.addFavorites([fightClub], for: ann, requestKey: "req-1")
        #expect(retry.replayed)
        #expect(retry.command.appended == first.command.appended)
        #expect(retry.command.outcomes == first.command.outcomes)
        #expect(retry.command.stream == first.command.stream)
        #expect(try await app.history(of: ann).entries.count == 2)
        // The key became the events' ids: derived from the handle, the key and the index.
        let key = try RequestKey("req-1")
        #expect(first.command.appended.map(\.eventID) == [0, 1].map { key.eventID(for: ann, index: $0) })
        #expect(first.command.appended.allSatisfy { $0.eventID.uuidString.dropFirst(14).first == "8" })
        // Before every time-ordered id, so the index's last key stays the newest of those.
        #expect(first.command.appended.allSatisfy { $0.eventID.uuid.0 == 0 && $0.eventID.uuidString < UUID.newEventID().uuidString })
        await app.close()
    }

    @Test func aRetryAfterALaterChangeDoesNotUndoIt() async throws {
        let app = Self.application()
        let added = try await app.addFavorites([fightClub, matrix], for: ann, requestKey: "k1")
        _ = try await app.removeFavorites([fightClub], for: ann, requestKey: "k2")
        let retry = try await app.addFavorites([fightClub, matrix], for: ann, requestKey: "k1")
        #expect(retry.replayed && retry.command.appended == added.command.appended)
        #expect(try app.account(ann).state.saved.items.map(\.key) == [matrix])
        #expect(try await app.history(of: ann).entries.count == 4)
        // The retry's state is the account now, without the title removed since.
        #expect(retry.command.state?.saved.items.map(\.key) == [matrix])
        await app.close()
    }

    @Test func theFirstAnswersOutcomesAreRepeatedWhatAppendedNothingIncluded() async throws {
        let app = Self.application()
        _ = try await app.addFavorites([fightClub], for: ann, requestKey: nil)
        let first = try await app.addFavorites([fightClub, matrix], for: ann, requestKey: "both")
        #expect(first.command.outcomes == [.alreadySaved(fightClub), .favoriteAdded(matrix)])
        _ = try await app.removeFavorites([fightClub], for: ann, requestKey: "remove")
        let again = try await app.addFavorites([fightClub, matrix], for: ann, requestKey: "both")
        #expect(again.replayed && again.command.outcomes == first.command.outcomes)
        await app.close()
    }

    @Test func theSameKeyOnTwoAccountsAppendsForBoth() async throws {
        let app = Self.application()
        let forAnn = try await app.addFavorites([fightClub], for: ann, requestKey: "same")
        let forBen = try await app.addFavorites([fightClub], for: ben, requestKey: "same")
        #expect(!forAnn.replayed && !forBen.replayed && forBen.changed)
        #expect(Set(forAnn.command.appended.map(\.eventID)).isDisjoint(with: forBen.command.appended.map(\.eventID)))
        #expect(try app.account(ben).state.saved.count == 1)
        await app.close()
    }

    @Test func aKeyHoldsAcrossANewApplicationOnTheSameDataDirectory() async throws {
        let directory = temporaryDirectory()
        let first = Self.application(dataDirectory: directory)
        let added = try await first.change(.rename(try ProfileName("Ann")), for: ann, requestKey: "rename-1")
        await first.close()
        let later = Self.application(dataDirectory: directory)
        let retry = try await later.change(.rename(try ProfileName("Ann")), for: ann, requestKey: "rename-1")
        #expect(retry.replayed && retry.command.appended == added.command.appended)
        #expect(retry.command.outcomes == [.accountOpened(ann), .nameChanged(try ProfileName("Ann"))])
        #expect(try await later.history(of: ann).entries.count == 2)
        await later.close()
    }

    /// A request that changed nothing stored nothing: its retry decides again.
    @Test func aFirstRequestThatChangedNothingIsDecidedAgain() async throws {
        let app = Self.application()
        _ = try await app.addFavorites([fightClub], for: ann, requestKey: nil)
        let first = try await app.addFavorites([fightClub], for: ann, requestKey: "noop")
        #expect(!first.changed && !first.replayed)
        _ = try await app.removeFavorites([fightClub], for: ann, requestKey: nil)
        let retry = try await app.addFavorites([fightClub], for: ann, requestKey: "noop")
        #expect(retry.changed && !retry.replayed)
        await app.close()
    }

    @Test func theSameKeyTwiceInOneBatchAppendsOnce() async throws {
        let app = Self.application()
        let ledger = try app.ledger()
        let requests = Array(repeating: { @Sendable () async throws -> ChangeReport in
            try await app.change(.addFavorites([try MediaKey(.movie, 550)]), for: try AccountHandle("ann"), requestKey: "twice")
        }, count: 3)
        let results = try await GroupCommitTests.inOneBatch(
            app.committer(ledger), writer: ledger.log, primer: { _ = try await app.change(.removePhoto, for: try AccountHandle("ben"), requestKey: nil) }, requests)
        let reports = try results.map { try $0.get() }
        // The three queue in whatever order their tasks start: one of them appends, the other
        // two are answered with its report.
        #expect(reports.filter { !$0.replayed }.count == 1)
        #expect(reports.allSatisfy { $0.command.appended == reports[0].command.appended })
        #expect(try await app.history(of: ann).entries.count == 2)
        await app.close()
    }

    @Test func aKeyUsedForAnotherRequestIsRefused() async throws {
        let app = Self.application()
        _ = try await app.addFavorites([fightClub], for: ann, requestKey: "one")
        await #expect(throws: Failure.self) { try await app.addFavorites([matrix], for: ann, requestKey: "one") }
        await #expect(throws: Failure.self) { try await app.removeFavorites([fightClub], for: ann, requestKey: "one") }
        do {
            _ = try await app.change(.switchLanguage(try LanguageTag("de-DE")), for: ann, requestKey: "one")
            Issue.record("a key used for another request was accepted")
        } catch let failure as Failure {
            #expect(failure.kind == .usage && failure.summary.contains("different request"))
        }
        #expect(try await app.history(of: ann).entries.count == 2)
        await app.close()
    }

    /// A handle deleted and opened again is another account: a key its deleted account used is
    /// not a retry there.
    @Test func aKeyOfADeletedAccountIsRefusedForTheHandlesNewOne() async throws {
        let app = Self.application()
        _ = try await app.addFavorites([fightClub], for: ann, requestKey: "old")
        _ = try app.deleteAccount(ann)
        do {
            _ = try await app.addFavorites([fightClub], for: ann, requestKey: "old")
            Issue.record("a deleted account's key was taken for a retry")
        } catch let failure as Failure {
            #expect(failure.kind == .usage && failure.summary.contains("deleted since"))
        }
        await app.close()
    }

    @Test func anInvalidKeyIsAUsageFailureAndChangesNothing() async throws {
        let app = Self.application()
        for key in ["", String(repeating: "k", count: 256), "caf\u{E9}", "line\nbreak", "tab\t"] {
            do {
                _ = try await app.addFavorites([fightClub], for: ann, requestKey: key)
                Issue.record("the key \(key.debugDescription) was accepted")
            } catch let failure as Failure {
                #expect(failure.kind == .usage)
            }
        }
        await #expect(throws: Failure.self) { try await app.change(.removePhoto, for: ann, requestKey: "") }
        await #expect(throws: Failure.self) { try await app.removeFavorites([fightClub], for: ann, requestKey: "\u{7F}") }
        #expect(try app.accounts().isEmpty)
        _ = try RequestKey(String(repeating: "~", count: 255))
        _ = try RequestKey(" a key with spaces ")
        await app.close()
    }
}
