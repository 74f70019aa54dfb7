import Failures
import Foundation
import Ledger
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

/// The ledger's use cases of `Application`, in process over a temporary data directory and the
/// bundled sample catalog: favorites, the saved list, history, export and import, deletion,
/// verification, the cache and credentials. The end-to-end suites keep the parsing, rendering and
/// exit codes of the real binary; these check the decisions, fast.
@Suite struct ApplicationLedgerTests {
    let ann = try! AccountHandle("ann")
    let fightClub = try! MediaKey(.movie, 550)
    let matrix = try! MediaKey(.movie, 603)
    let breakingBad = try! MediaKey(.tv, 1396)

    static func application(_ name: String = #function, offline: Bool = false) -> (Application, ApplicationBrowsingTests.Notices) {
        let notices = ApplicationBrowsingTests.Notices()
        let environment = ["HOME": temporaryDirectory(name + "-home")]
        let app = Application(.init(dataDirectory: temporaryDirectory(name), offline: offline, environment: environment) { notices.append($0.text) })
        return (app, notices)
    }

    @Test func favoritesAreNamedAndIdsTheSampleDoesNotKnowAreRefused() async throws {
        let (app, _) = Self.application()
        let unknown = try MediaKey(.movie, 999_999)
        await #expect {
            _ = try await app.addFavorites([fightClub, unknown], for: ann)
        } throws: { error in
            (error as? any KindedError)?.kind == .notFound && "\(error)".contains("the sample catalog has no movie with id 999999")
        }
        #expect(try app.account(ann).state.saved.items.isEmpty, "nothing saved")
        // A long list names the first five.
        await #expect {
            _ = try await app.addFavorites(try (1...7).map { try MediaKey(.movie, Int64(900_000 + $0)) }, for: ann)
        } throws: { error in
            "\(error)".contains("no movie with id 900001, 900002, 900003, 900004, 900005 (and 2 more) (TMDb credentials")
        }
        let added = try await app.addFavorites([fightClub], for: ann)
        #expect(added.changed && added.notes.isEmpty)
        #expect(added.command.outcomes.map { added.message($0) } == ["opened the account 'ann'", "added movie 550 Fight Club (1999)"])
        let again = try await app.addFavorites([fightClub], for: ann)
        #expect(!again.changed)
        let removed = try await app.removeFavorites([fightClub, matrix], for: ann)
        #expect(removed.changed)
        #expect(try app.account(ann).state.saved.items.isEmpty)
        await app.close()
    }

    @Test func theSavedListIsFilteredSearchedAndSorted() async throws {
        let (app, _) = Self.application()
        _ = try await app.addFavorites([matrix, fightClub], for: ann)
        _ = try await app.addFavorites([breakingBad], for: ann)

        let all = try await app.savedList(of: ann, SavedListQuery())
        #expect(all.items.map(\.saved.key) == [matrix, fightClub, breakingBad])
        #expect(all.total == 3 && all.detailsMissing == 0 && all.notices.isEmpty)

        let byTitle = try await app.savedList(of: ann, SavedListQuery(mediaType: .movie, order: .title))
        #expect(byTitle.items.map(\.saved.key) == [fightClub, matrix])
        let newestFirst = try await app.savedList(of: ann, SavedListQuery(descending: true))
        #expect(newestFirst.items.map(\.saved.key) == [breakingBad, fightClub, matrix])
        let searched = try await app.savedList(of: ann, SavedListQuery(search: "MATRIX"))
        #expect(searched.items.map(\.saved.key) == [matrix])
        let past = try await app.savedList(of: ann, SavedListQuery(asOf: .streamVersion(3)))
        #expect(past.items.map(\.saved.key) == [matrix, fightClub])
        #expect(past.asOf != nil)
        await app.close()
    }

    @Test func withoutALedgerAnAccountReadsAsNewAndNothingIsMade() async throws {
        let (app, _) = Self.application()
        let list = try await app.savedList(of: ann, SavedListQuery())
        #expect(list.items.isEmpty && list.total == 0 && list.stream == nil)
        let view = try app.account(ann)
        #expect(view.isUnopened && view.state.settings == Settings())
        let history = try await app.history(of: ann)
        #expect(history.entries.isEmpty && history.stream == nil)
        #expect(try app.accounts().isEmpty)
        // A point in the past of an account that never was is not found.
        #expect(throws: ReelError.noLedger(app.configuration.dataDirectory)) { _ = try app.account(ann, asOf: .streamVersion(1)) }
        await #expect(throws: ReelError.noLedger(app.configuration.dataDirectory)) { _ = try await app.history(of: ann, asOf: .streamVersion(1)) }
        #expect(!AccountService.ledgerExists(at: app.configuration.dataDirectory))
        await app.close()
    }

    @Test func historyNamesTheTitles() async throws {
        let (app, _) = Self.application()
        _ = try await app.addFavorites([fightClub], for: ann)
        _ = try app.change(.rename(try ProfileName("Ann")), for: ann)
        let history = try await app.history(of: ann)
        #expect(history.entries.map { $0.summary(title: history.title($0)) } == [
            "opened the account 'ann'", "added movie 550 Fight Club (1999)", "changed name to \"Ann\"",
        ])
        #expect(history.deletedAt == nil)
        let last = try await app.history(of: ann, limit: 1)
        #expect(last.entries.count == 1)
        await app.close()
    }

    @Test func anExportImportsAsANewAccountAndAListImportMatchesTitles() async throws {
        let (app, _) = Self.application()
        _ = try await app.addFavorites([fightClub, matrix], for: ann)
        let export = try await app.export(ann, format: .reel, generator: "tests")
        #expect(export.events == 3 && export.saved == 2 && export.listed == 2)
        let document = try app.verifyExport(export.document, file: "ann.json")
        #expect(document.handle == ann)

        let bob = try AccountHandle("bob")
        let dry = try await app.importFile(export.document, file: "ann.json", format: nil, as: bob, defaultHandle: ann, dryRun: true)
        guard case .restored(let wouldBe, _, _) = dry else { Issue.record("not a restore: \(dry)"); return }
        #expect(wouldBe.stream == nil && wouldBe.saved == 2)
        #expect(try app.account(bob).isUnopened, "a dry run opens no account")
        let restored = try await app.importFile(export.document, file: "ann.json", format: nil, as: bob, defaultHandle: ann, dryRun: false)
        guard case .restored(let report, let source, _) = restored else { Issue.record("not a restore: \(restored)"); return }
        #expect(source == ann && report.stream != nil)
        #expect(try app.account(bob).state.saved.items.map(\.key) == [fightClub, matrix])

        let letterboxd = try await app.export(ann, format: .letterboxd, generator: "tests")
        let carl = try AccountHandle("carl")
        let list = try await app.importFile(letterboxd.document, file: "ann.csv", format: nil, as: carl, defaultHandle: ann, dryRun: false)
        guard case .list(let imported) = list else { Issue.record("not a list: \(list)"); return }
        #expect(imported.format == .letterboxd && imported.rows == 2 && imported.added == 2 && imported.unmatched.isEmpty)
        // A TMDb id the catalog does not have is not saved: it is listed unmatched, as `fav add` refuses it.
        let unknown = Array("tmdbID,Title,Year\n99999999,,\n603,The Matrix,1999\n".utf8)
        let dan = try AccountHandle("dan")
        let checked = try await app.importFile(unknown, file: "list.csv", format: nil, as: dan, defaultHandle: ann, dryRun: false)
        guard case .list(let partly) = checked else { Issue.record("not a list: \(checked)"); return }
        #expect(partly.rows == 2 && partly.added == 1 && partly.unmatched.map(\.reason) == [
            "the sample catalog has no movie with id 99999999 (TMDb credentials show every title and person)"
        ])
        #expect(try app.account(dan).state.saved.items.map(\.key) == [matrix])

        // Catalog details are not sealed, the events are: a byte of a hash changed breaks the chain.
        var text = String(decoding: export.document, as: UTF8.self)
        let hash = try #require(text.range(of: #""headHash":""#)).upperBound
        text.replaceSubrange(hash...hash, with: text[hash] == "0" ? "1" : "0")
        let tampered = Array(text.utf8)
        #expect(throws: Failure.self) { _ = try app.verifyExport(tampered, file: "ann.json") }
        do {
            _ = try app.verifyExport(Array("{}".utf8), file: "empty.json")
        } catch let failure as Failure {
            #expect(failure.kind == .tampered && failure.summary.hasPrefix("empty.json: "))
        }
        await app.close()
    }

    @Test func aDeletedAccountIsGoneForGoodAndTheLedgerStillVerifies() async throws {
        let (app, _) = Self.application()
        _ = try await app.addFavorites([fightClub], for: ann)
        let deletion = try app.deleteAccount(ann)
        #expect(deletion.events == 3)
        #expect(throws: Failure(.notFound, "the account 'ann' is deleted already (on \(UTCTime.iso(deletion.deletedAt)))")) {
            _ = try app.accountToDelete(ann)
        }
        #expect(throws: Failure(.notFound, "there is no account 'zed'")) { _ = try app.accountToDelete(try AccountHandle("zed")) }
        let report = try app.verifyLedger()
        #expect(report.isIntact && report.eventsChecked == 3)
        let history = try await app.history(of: ann)
        #expect(history.deletedAt == deletion.deletedAt)
        await app.close()
    }

    @Test func theCacheAndTheCredentialsWithoutTMDb() async throws {
        let (app, _) = Self.application()
        #expect(try app.cacheStatistics().entries == 0)
        #expect(try app.clearCache().answers == 0)
        let status = try await app.credentialStatus()
        #expect(status.found == nil && !status.checked && status.accepted == nil)
        #expect(try app.logout().removed == false)
        await app.close()
    }

    @Test func aKindedErrorSaysItsKind() {
        #expect(ReelError.noLedger("/x").kind == .notFound)
        #expect(DomainError.accountDeleted("ann").kind == .notFound)
        #expect(Failure(.usage, "x").summary == "x")
    }

    @Test func aPhotoIsReadUpToItsLimitAndCheckedBeforeItIsSaved() async throws {
        let (app, _) = Self.application()
        let file = temporaryDirectory("photo") + "/me.png"
        try Data(DamagedExports.png).write(to: URL(fileURLWithPath: file))
        let bytes = try Application.readPhoto(at: file)
        let changed = try app.changePhoto(to: bytes, from: file, for: ann)
        #expect(changed.changed)
        #expect(try app.account(ann).state.settings.photo?.sha256 == ContentDigest.sha256Hex(DamagedExports.png))

        let script = Array("#!/bin/sh\nrm -rf ~\n".utf8)
        #expect(throws: Failure(.usage, "script.sh: invalid photo: the file is neither a JPEG nor a PNG image")) {
            _ = try app.changePhoto(to: script, from: "script.sh", for: ann)
        }
        #expect(throws: Failure(.usage, "/dev/zero: invalid photo: the file has more bytes than the limit; the limit is 5,000,000 (5 MB), and nothing past it was read")) {
            _ = try Application.readPhoto(at: "/dev/zero")
        }
        #expect(throws: Failure(.usage, "/tmp: is a directory, not a photo")) { _ = try Application.readPhoto(at: "/tmp") }
        #expect(try app.account(ann).state.settings.photo?.sha256 == ContentDigest.sha256Hex(DamagedExports.png), "a refused photo changes nothing")
        await app.close()
    }
}
