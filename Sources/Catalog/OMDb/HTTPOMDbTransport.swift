import AsyncHTTPClient
import NIOHTTP1
import NIOHTTPCompression
import Foundation

/// OMDb over HTTP: the key added here as `apikey` and nowhere else, so it never reaches a cache
/// key, a budget slot, a log line or an error (a failure's description never holds the URL).
public final class HTTPOMDbTransport: OMDbTransport {
    public static let defaultBaseURL = "https://www.omdbapi.com/"

    public let baseURL: String
    private let key: OMDbKey
    private let http: LazyHTTPClient
    /// An OMDb answer is a few kilobytes; 1 MiB is more than any.
    private static let maximumBodyBytes = 1 << 20

    public init(baseURL: String = defaultBaseURL, key: OMDbKey, maxConnections: Int, timeout: Duration = .seconds(20)) {
        self.baseURL = baseURL
        self.key = key
        http = LazyHTTPClient(maxConnections: maxConnections, timeout: timeout) { configuration in
            configuration.decompression = .enabled(limit: .ratio(50))
        }
    }

    public func send(_ query: [QueryItem]) async throws -> TransportResponse {
        let items = query + [QueryItem("apikey", key.secret)]
        let separator = baseURL.contains("?") ? "&" : "?"
        var outgoing = HTTPClientRequest(url: baseURL + separator + items.map(\.encoded).joined(separator: "&"))
        outgoing.method = .GET
        outgoing.headers.add(name: "Accept", value: "application/json")
        outgoing.headers.add(name: "Accept-Encoding", value: "gzip")
        outgoing.headers.add(name: "User-Agent", value: "reel")
        do {
            return try await http.response(to: outgoing, maximumBody: Self.maximumBodyBytes)
        } catch {
            throw HTTPTransport.failure(from: error)
        }
    }

    public func shutdown() async { await http.shutdown() }
}
