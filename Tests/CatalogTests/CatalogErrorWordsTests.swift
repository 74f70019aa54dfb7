import Testing

@testable import Catalog

/// A catalog failure in words for a screen (`inWords`): what failed, never the endpoint or query
/// (those stay in `description`, for logs and scripts).
@Suite struct CatalogErrorWordsTests {
    static let endpoint = "/discover/tv?include_adult=false&include_null_first_air_dates=false&language=en-US&page=1"

    @Test func eachFailureSaysWhatFailedWithoutTheEndpoint() {
        let cases: [(CatalogError, String)] = [
            (.unavailable(endpoint: Self.endpoint, reason: "HTTP 503 (Service Unavailable)"), "Couldn't reach TMDb: it answered 503 (unavailable)"),
            (.unavailable(endpoint: Self.endpoint, reason: "HTTP 500"), "Couldn't reach TMDb: it answered 500 (server error)"),
            (.unavailable(endpoint: Self.endpoint, reason: "HTTP 504"), "Couldn't reach TMDb: it answered 504 (gateway timeout)"),
            (.unavailable(endpoint: Self.endpoint, reason: "connection refused"), "Couldn't reach TMDb: connection refused"),
            (.rateLimited(endpoint: Self.endpoint, retryAfter: .seconds(30)), "TMDb asks Reel to slow down (429): wait 30 s"),
            (.rateLimited(endpoint: Self.endpoint, retryAfter: nil), "TMDb asks Reel to slow down (429)"),
            (.notFound(endpoint: Self.endpoint), "TMDb has no such title or page (404)"),
            (.rejected(endpoint: Self.endpoint, status: 422, message: "page must be less than 500"), "TMDb refused the request (HTTP 422)"),
            (.malformedResponse(endpoint: Self.endpoint, detail: "key 'results' missing"), "TMDb sent an answer Reel cannot read"),
            (.notCached(endpoint: Self.endpoint), "offline, and this was never fetched: go online once"),
        ]
        for (error, words) in cases {
            #expect(error.inWords == words)
            #expect(!error.inWords.contains("/discover") && error.description.contains("/discover"), "\(error)")
        }
        let refused = CatalogError.invalidCredentials(code: 7, message: "Invalid API key", hint: "check the key")
        #expect(refused.inWords == refused.description, "no endpoint in it to leave out")
    }
}
