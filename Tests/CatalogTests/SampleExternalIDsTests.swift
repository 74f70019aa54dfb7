import Foundation
import JSONKit
import Ledger
import Testing
@testable import Catalog

/// TMDb's side of the join with OMDb in the sample catalog: `external_ids` appended to details
/// and on their own, and `/find` by IMDb id for movies and series.
@Suite struct SampleExternalIDsTests {
    static func json(_ path: String, _ query: [String: String] = [:]) throws -> JSONValue {
        let answer = SampleAPI.answer(path, query)
        try #require(answer.status == 200, "\(path) \(query) → \(answer.status) \(SampleAPI.text(answer))")
        return try JSONValue(parsing: answer.body)
    }

    static let movieKeys: Set<String> = ["imdb_id", "wikidata_id", "facebook_id", "instagram_id", "twitter_id"]
    static let seriesKeys = movieKeys.union(["freebase_mid", "freebase_id", "tvdb_id", "tvrage_id"])

    @Test func appendedToMovieDetailsBesideTheTopLevelIMDbID() throws {
        let details = try Self.json("/movie/550", ["append_to_response": "credits,external_ids"])
        #expect(details["imdb_id"]?.stringValue == "tt0137523", "movie details keep their own imdb_id")
        let ids = try #require(details["external_ids"]?.objectValue)
        #expect(Set(ids.keys) == Self.movieKeys, "appended: no id, as TMDb appends")
        #expect(ids["imdb_id"] == .string("tt0137523") && ids["wikidata_id"] == .null)
        #expect(details["credits"] != nil)
        #expect(try Self.json("/movie/550")["external_ids"] == nil, "only when asked for")
        // The client's model still decodes the details.
        let decoded = try SampleAPI.get(MovieDetails.self, "/movie/550", ["append_to_response": "external_ids"])
        #expect(decoded.imdbID == "tt0137523")
    }

    @Test func appendedToSeriesDetails() throws {
        let details = try Self.json("/tv/1396", ["append_to_response": "external_ids"])
        let ids = try #require(details["external_ids"]?.objectValue)
        #expect(Set(ids.keys) == Self.seriesKeys)
        #expect(ids["imdb_id"] == .string("tt0903747") && ids["tvdb_id"] == .null && ids["wikidata_id"] == .null)
        #expect(details["imdb_id"] == nil, "series details have no top-level imdb_id")
        _ = try SampleAPI.get(SeriesDetails.self, "/tv/1396", ["append_to_response": "external_ids,credits"])
        // A series TMDb knows no IMDb id for says null.
        let unknown = try Self.json("/tv/94722", ["append_to_response": "external_ids"])
        #expect(unknown["external_ids"]?["imdb_id"] == .null)
    }

    @Test func onTheirOwnWithTheTitlesID() throws {
        let movie = try #require(try Self.json("/movie/550/external_ids").objectValue)
        #expect(Set(movie.keys) == Self.movieKeys.union(["id"]) && movie["id"] == .integer(550) && movie["imdb_id"] == .string("tt0137523"))
        let series = try #require(try Self.json("/tv/1399/external_ids").objectValue)
        #expect(Set(series.keys) == Self.seriesKeys.union(["id"]) && series["id"] == .integer(1399) && series["imdb_id"] == .string("tt0944947"))
        // Appended and on their own agree, but for the id.
        for (kind, ids) in [("movie", SampleAPI.catalog.movieIDs), ("tv", SampleAPI.catalog.seriesIDs)] {
            for id in ids {
                var alone = try #require(try Self.json("/\(kind)/\(id)/external_ids").objectValue)
                #expect(alone.removeValue(forKey: "id") == .integer(Int64(id)))
                let appended = try Self.json("/\(kind)/\(id)", ["append_to_response": "external_ids"])["external_ids"]
                #expect(appended == .object(alone), "/\(kind)/\(id)")
            }
        }
        for path in ["/movie/999999999/external_ids", "/tv/999999999/external_ids"] {
            #expect(try SampleAPI.failure(path).body.statusCode == 34)
        }
        #expect(try SampleAPI.failure("/movie/abc/external_ids").body.statusCode == 6)
    }

    @Test func externalIDsCountAmongTheTwentyAppendedObjects() throws {
        let twenty = ["external_ids", "credits", "videos", "similar"] + (1...16).map { "extra\($0)" }
        #expect(twenty.count == 20)
        for path in ["/movie/550", "/tv/1399"] {
            let ok = try Self.json(path, ["append_to_response": twenty.joined(separator: ",")])
            #expect(ok["external_ids"] != nil)
            let (status, body) = try SampleAPI.failure(path, ["append_to_response": (twenty + ["extra17"]).joined(separator: ",")])
            #expect(status == 400 && body.statusCode == 27, "\(path): the 21st is one too many")
        }
    }

    @Test func findBySeriesAndMovieIMDbIDs() throws {
        let series = try SampleAPI.get(FindResults.self, "/find/tt0903747", ["external_source": "imdb_id"])
        #expect(series.movieResults.isEmpty && series.tvResults.map(\.id) == [1396])
        let raw = try Self.json("/find/tt0903747", ["external_source": "imdb_id"])
        guard case .array(let rows)? = raw["tv_results"] else { Issue.record("no tv_results"); return }
        #expect(rows.first?["media_type"] == .string("tv"))
        let movie = try SampleAPI.get(FindResults.self, "/find/tt0137523", ["external_source": "imdb_id"])
        #expect(movie.movieResults.map(\.id) == [550] && movie.tvResults.isEmpty)
        let german = try SampleAPI.get(FindResults.self, "/find/tt5753856", ["external_source": "imdb_id", "language": "de-DE"])
        #expect(german.tvResults.map(\.id) == [70523])
        let none = try SampleAPI.get(FindResults.self, "/find/tt0000001", ["external_source": "imdb_id"])
        #expect(none.movieResults.isEmpty && none.tvResults.isEmpty)
        // Every title with an IMDb id is found by it, as exactly itself.
        for s in SampleAPI.catalog.series {
            guard let imdbID = s.imdb_id else { continue }
            let found = try SampleAPI.get(FindResults.self, "/find/\(imdbID)", ["external_source": "imdb_id"])
            #expect(found.tvResults.map(\.id) == [s.id] && found.movieResults.isEmpty, "\(imdbID)")
        }
    }

    @Test func findsASyntheticMovieByItsIMDbID() throws {
        let catalog = SampleCatalog.bundled.withSyntheticMovies(3)
        let answer = SampleResponder(catalog: catalog).respond(path: "/find/tt90000002", query: [QueryItem("external_source", "imdb_id")])
        let found = try JSONDecoder().decode(FindResults.self, from: Data(answer.body))
        #expect(found.movieResults.map(\.id) == [90_000_002])
    }
}
