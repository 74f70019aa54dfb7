import Foundation
import JSONKit
import ReelTestSupport
import Processes
import Ledger
import Testing
@testable import Catalog

/// The bundled sample catalog: in sync with its JSON source, as big as promised, and every answer
/// decodable through the same models as TMDb's.
@Suite struct SampleCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The same facts as the JSON source (written without spaces), and an index that says where
    /// each fact's object is, in order, every one of them.
    @Test func theEmbeddedDataIsTheJSONSource() throws {
        for (name, embedded, index) in [
            ("movies", SampleData.movies, SampleData.moviesIndex), ("series", SampleData.series, SampleData.seriesIndex),
            ("people", SampleData.people, SampleData.peopleIndex),
        ] {
            let source = try Data(contentsOf: Self.root.appendingPathComponent("Sources/Catalog/SampleData/\(name).json"))
            let facts = try JSONValue(parsing: Array(embedded.utf8))
            #expect(try JSONValue(parsing: Array(source)) == facts, "run Tools/embed_sample_catalog.py after editing \(name).json")
            guard case .array(let all) = facts else { Issue.record("\(name) is not an array"); continue }
            #expect(index.count == all.count, "\(name): \(index.count) indexed of \(all.count)")
            let bytes = Array(embedded.utf8)
            for (position, entry) in index.enumerated() where position < all.count {
                let one = try JSONValue(parsing: bytes[entry.start..<entry.end])
                #expect(one == all[position] && one["id"]?.integerValue == Int64(entry.id), "\(name)[\(position)]")
            }
        }
    }

    @Test func theFactsPassTheirChecker() async throws {
        let output = temporaryDirectory("sample-check") + "/output"
        let ended = try await ChildProcess.spawn(
            Python.command([Self.root.appendingPathComponent("Tools/check_sample_catalog.py").path]),
            standardOutput: .write(output), standardError: .sameAs(1)
        ).exit()
        #expect(ended.status == 0, "\((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")")
    }

    @Test func itHoldsWhatTheIssuePromises() async throws {
        let catalog = SampleCatalog.bundled
        #expect(catalog.movieCount >= 60)
        #expect(catalog.seriesCount >= 30)
        let client = CatalogClient.sample()
        let cumberbatch = try await client.person(71580, language: "en-US")
        #expect(cumberbatch.name == "Benedict Cumberbatch")
        #expect((cumberbatch.combinedCredits?.cast.count ?? 0) >= 5)
        #expect(try await client.genres(.movie, language: "en-US").genres.count == 19)
        #expect(try await client.genres(.tv, language: "en-US").genres.count == 16)
        #expect(try await client.genres(.movie, language: "de-DE").name(of: 10749) == "Liebesfilm")
        // A subset speaks German, and the rest falls back to English.
        var german = 0
        for id in catalog.movieIDs {
            let en = try await client.movie(id, language: "en-US")
            let de = try await client.movie(id, language: "de-DE")
            #expect(de.id == en.id && de.releaseDate == en.releaseDate)
            if de.overview != en.overview { german += 1 }
        }
        #expect(german >= 20)
        let godfather = try await client.movie(238, language: "de-DE")
        #expect(godfather.title == "Der Pate")
        var withVideos = 0
        var withSimilar = 0
        for id in catalog.movieIDs {
            let m = try await client.movie(id, language: "en-US", appending: [.videos, .similar, .credits])
            if !(m.videos?.results.isEmpty ?? true) { withVideos += 1 }
            if !(m.similar?.results.isEmpty ?? true) { withSimilar += 1 }
        }
        #expect(withVideos >= 5)
        #expect(withSimilar >= 50)
    }

    @Test func everyTitleAndPersonDecodesInBothLanguages() async throws {
        let client = CatalogClient.sample()
        let catalog = SampleCatalog.bundled
        for language in ["en-US", "de-DE", "fr-FR"] {
            for id in catalog.movieIDs {
                _ = try await client.movie(id, language: language, appending: [.credits, .videos, .similar])
                _ = try await client.similarMovies(to: id, language: language)
            }
            for id in catalog.seriesIDs {
                _ = try await client.series(id, language: language, appending: [.credits, .videos, .similar])
                _ = try await client.credits(.tv, id: id, language: language)
            }
            for id in catalog.personIDs {
                _ = try await client.person(id, language: language)
            }
        }
    }

    @Test func genreNamesResolveInEitherLanguage() {
        #expect(SampleCatalog.bundled.genreIDs(named: "komödie", .movie) == [35])
        #expect(SampleCatalog.bundled.genreIDs(named: "Science Fiction", .movie) == [878])
        #expect(SampleCatalog.bundled.genreIDs(named: "Sci-Fi & Fantasy", .tv) == [10765])
    }
}
