import Foundation
import Ledger
import Testing
@testable import Catalog

/// The sample catalog answers lists of titles from its facts, without building JSON: each
/// summary must be exactly what decoding the title's details answer gives.
@Suite struct SampleSummaryTests {
    /// The details answer a list asks for (with `external_ids`) as the sample transport serves
    /// it, decoded as TMDb's would be.
    static func decoded(_ key: MediaKey, _ language: String, _ responder: SampleResponder) throws -> DetailsSummary? {
        let request = CatalogRequest.details(key.mediaType, id: Int(key.id), language: language, appending: [.externalIDs])
        let answer = responder.respond(path: request.path, query: request.query)
        guard answer.status == 200 else { return nil }
        switch key.mediaType {
        case .movie: return DetailsSummary(try JSONDecoder().decode(MovieDetails.self, from: Data(answer.body)))
        case .tv: return DetailsSummary(try JSONDecoder().decode(SeriesDetails.self, from: Data(answer.body)))
        }
    }

    @Test func everySummaryIsWhatItsDetailsAnswerDecodesTo() async throws {
        let catalog = SampleCatalog.bundled.withSyntheticMovies(30)
        let responder = SampleResponder(catalog: catalog)
        let client = CatalogClient.sample(catalog)
        var keys = try catalog.movieIDs.map { try MediaKey(.movie, Int64($0)) } + catalog.seriesIDs.map { try MediaKey(.tv, Int64($0)) }
        keys += try (1...30).map { try MediaKey(.movie, Int64(SampleCatalog.syntheticBase + $0)) }
        for language in ["en-US", "de-DE", "de", "de-AT", "fr-FR", "EN", ""] {
            let answers = try await client.summaries(of: keys, language: language)
            #expect(answers.count == keys.count)
            var translated = 0
            for key in keys {
                let expected = try #require(try Self.decoded(key, language, responder), "\(key) \(language)")
                let summary = try #require(try answers[key]?.get(), "\(key) \(language)")
                #expect(summary == expected, "\(key) \(language)")
                if language.hasPrefix("de"), let english = try Self.decoded(key, "en-US", responder), english.title != summary.title { translated += 1 }
            }
            if language.hasPrefix("de") { #expect(translated >= 20, "\(language)") }
        }
        #expect(client.counts.networkRequests == 0)
    }

    @Test func unknownIdsAreNotFoundAsTheSampleTransportSays() async throws {
        let catalog = SampleCatalog.bundled
        let responder = SampleResponder(catalog: catalog)
        let keys = try [MediaKey(.movie, 1), MediaKey(.tv, 1), MediaKey(.tv, 550), MediaKey(.movie, 1399),
                        MediaKey(.movie, Int64(SampleCatalog.syntheticBase + 1)), MediaKey(.movie, MediaKey.maximumID)]
        let answers = try await CatalogClient.sample(catalog).summaries(of: keys + keys, language: "en-US")
        #expect(answers.count == keys.count)
        for key in keys {
            let request = CatalogRequest.details(key.mediaType, id: Int(key.id), language: "en-US")
            #expect(responder.respond(path: request.path, query: request.query).status == 404)
            #expect(answers[key] == .failure(.notFound(endpoint: request.description)))
        }
    }
}
