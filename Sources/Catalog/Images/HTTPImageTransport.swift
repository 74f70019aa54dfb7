import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Images over HTTP: a client of its own (TMDb's image host is not the API host), no credentials
/// ever (the image host needs none, so a token never travels to it), a few pooled connections,
/// and a bound on the body so a runaway answer cannot fill memory.
public final class HTTPImageTransport: ImageTransport {
    /// 25 MB: TMDb's largest originals are a few megabytes.
    public static let maximumBodyBytes = 25 << 20
    private let http: LazyHTTPClient

    public init(maxConnections: Int, timeout: Duration = .seconds(20)) {
        http = LazyHTTPClient(maxConnections: maxConnections, timeout: timeout) { configuration in
            configuration.redirectConfiguration = .follow(max: 3, allowCycles: false)
        }
    }

    public func fetch(_ url: String) async throws -> TransportResponse {
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = .GET
        outgoing.headers.add(name: "Accept", value: "image/jpeg, image/png")
        outgoing.headers.add(name: "User-Agent", value: "reel")
        do {
            return try await http.response(to: outgoing, maximumBody: Self.maximumBodyBytes)
        } catch is NIOTooManyBytesError {
            throw TransportFailure.other("the image is larger than \(Self.maximumBodyBytes >> 20) MB")
        } catch {
            throw HTTPTransport.failure(from: error)
        }
    }

    public func shutdown() async { await http.shutdown() }
}
