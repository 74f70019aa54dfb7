import Failures
import Foundation
import Ledger
import ReelTestSupport
import Synchronization
import Testing

@testable import Reel
@testable import Stores

/// Browsing, search, person, details and genres as use cases of `Application`, in process: an
/// application over a temporary data directory and the bundled sample catalog (no credentials in
/// its environment).
@Suite struct ApplicationBrowsingTests {
    let ann = try! AccountHandle("ann")

    /// An application over a fresh data directory, its home (where a credential file would be)
    /// empty too; its notices are collected.
    static func application(_ name: String = #function) -> (Application, Notices) {
        let notices = Notices()
        let environment = ["HOME": temporaryDirectory(name + "-home")]
        let app = Application(.init(dataDirectory: temporaryDirectory(name), environment: environment) { notices.append($0.text) })
        return (app, notices)
    }

    final class Notices: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ text: String) { lines.withLock { $0.append(text) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func aDiscoverListInTheAccountsLanguageMarksSavedTitles() async throws {
        let (app, notices) = Self.application()
        let fightClub = try MediaKey(.movie, 550)
        _ = try app.change(.switchLanguage(try LanguageTag("de-DE")), for: ann)
        _ = try await app.addFavorites([fightClub], for: ann)

        let report = try await app.titleList(TitleListQuery(mediaType: .movie, genres: ["comedy"], pages: 5), for: ann)
        #expect(report.language == "de-DE")
        #expect(report.genres.map(\.id) == [35])
        #expect(report.genres.map(\.name) == ["Komödie"])
        #expect(!report.rows.isEmpty)
        #expect(report.rows.allSatisfy { $0.summary.genres.contains { $0.name == "Komödie" } })

        let all = try await app.titleList(TitleListQuery(mediaType: .movie, pages: 50), for: ann)
        #expect(all.paging.pagesFetched == all.paging.totalPages)
        #expect(all.rows.count == all.paging.totalResults)
        #expect(all.rows.filter { $0.savedAt != nil }.map(\.summary.key) == [fightClub])
        #expect(notices.all.contains { $0.contains("sample") }, "no credentials: the sample catalog says so")
        await app.close()
    }

    @Test func withoutALedgerBrowsingIsEnglishAndMakesNothing() async throws {
        let (app, _) = Self.application()
        let report = try await app.titleList(TitleListQuery(mediaType: .tv), for: ann)
        #expect(report.language == "en-US")
        #expect(report.rows.count == 20)
        #expect(report.rows.allSatisfy { $0.savedAt == nil && $0.summary.key.mediaType == .tv })
        #expect(report.paging.firstPage == 1 && report.paging.pagesFetched == 1)
        #expect(!AccountService.ledgerExists(at: app.configuration.dataDirectory))
        await app.close()
    }

    @Test func anUnknownGenreIsAUsageErrorNamingTheGenres() async throws {
        let (app, _) = Self.application()
        await #expect {
            _ = try await app.titleList(TitleListQuery(mediaType: .movie, genres: ["no such genre"]), for: ann)
        } throws: { error in
            guard let failure = error as? Failure else { return false }
            return failure.kind == .usage && failure.summary.hasPrefix("no movie genre 'no such genre'; the genres are: ")
        }
        await app.close()
    }

    @Test func searchFindsTitlesAndPeopleAndMarksSavedTitles() async throws {
        let (app, _) = Self.application()
        let matrix = try MediaKey(.movie, 603)
        _ = try await app.addFavorites([matrix], for: ann)
        let report = try await app.search(SearchQuery("matrix", kind: .movie), for: ann)
        #expect(report.titles.contains { $0.summary.key == matrix && $0.savedAt != nil })
        #expect(report.people.isEmpty)
        let people = try await app.search(SearchQuery("cumberbatch", kind: .person), for: ann)
        #expect(people.titles.isEmpty)
        #expect(people.people.contains { $0.id == 71580 })
        await app.close()
    }

    @Test func aPersonByNameOrIdWithTheFilmographyCut() async throws {
        let (app, _) = Self.application()
        let byID = try await app.person("71580", for: ann)
        #expect(byID.details.id == 71580)
        #expect(byID.credits.count == byID.total && byID.total > 2)
        let byName = try await app.person("Benedict Cumberbatch", limit: 2, for: ann)
        #expect(byName.details.id == 71580)
        #expect(byName.shown == 2 && byName.credits.map(\.key) == byID.credits.prefix(2).map(\.key))
        await #expect {
            _ = try await app.person("0", for: ann)
        } throws: { ($0 as? Failure)?.kind == .usage }
        await #expect {
            _ = try await app.person("999999999", for: ann)
        } throws: { ($0 as? Failure)?.kind == .notFound }
        await app.close()
    }

    @Test func detailsSaySavedAndAnUnknownIdIsNotFound() async throws {
        let (app, _) = Self.application()
        let fightClub = try MediaKey(.movie, 550)
        _ = try await app.addFavorites([fightClub], for: ann)
        let details = try await app.titleDetails(fightClub, for: ann)
        #expect(details.title == "Fight Club")
        #expect(details.savedAt != nil)
        #expect(details.people.first?.role == "Directed by")
        await #expect {
            _ = try await app.titleDetails(try MediaKey(.tv, 999_999_999), for: ann)
        } throws: { error in
            (error as? Failure) == Failure(.notFound, "the sample catalog has no series with id 999999999 (TMDb credentials show every title and person)")
        }
        await app.close()
    }

    @Test func genresOfBothKindsInTheAccountsLanguage() async throws {
        let (app, _) = Self.application()
        _ = try app.change(.switchLanguage(try LanguageTag("de-DE")), for: ann)
        let report = try await app.genres(for: ann)
        #expect(report.language == "de-DE")
        #expect(report.lists.map(\.mediaType) == [.movie, .tv])
        #expect(report.lists[0].genres.contains { $0.id == 35 && $0.name == "Komödie" })
        #expect(try await app.genres(.tv, for: ann).lists.map(\.mediaType) == [.tv])
        await app.close()
    }

    @Test func aTitleResolvesToTheOneThatClearlyWinsOrToItsCandidates() async throws {
        let (app, _) = Self.application()
        func keys(_ text: String, _ type: MediaType? = nil, year: Int? = nil) async throws -> [String] {
            switch try await app.resolveTitle(text, mediaType: type, year: year, for: ann) {
            case .found(let summary): ["found \(summary.key)"]
            case .ambiguous(let candidates): candidates.map { "\($0.key)" }.sorted()
            case .notFound: []
            }
        }
        var found = try await keys("fight club")
        #expect(found == ["found movie 550"])
        // Case and accents aside, the exact title wins.
        found = try await keys("FIGHT CLÚB")
        #expect(found == ["found movie 550"])
        found = try await keys("avengers")
        #expect(found == ["movie 299534", "movie 299536"])
        found = try await keys("avengers", year: 2019)
        #expect(found == ["found movie 299534"])
        found = try await keys("breaking bad", .tv)
        #expect(found == ["found tv 1396"])
        found = try await keys("breaking bad", .movie)
        #expect(found == [])
        found = try await keys("no such title anywhere")
        #expect(found == [])
        // In the account's language: the German title finds the same film.
        _ = try app.change(.switchLanguage(try LanguageTag("de-DE")), for: ann)
        found = try await keys("Der Pate", .movie)
        #expect(found == ["found movie 238"])
        await app.close()
    }
}
