import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// A transparency-log witness over HTTP (C2SP tlog-witness): `POST <prefix>/add-checkpoint` with
/// the request's text, its answer read whole (a few signature lines, or a size). One connection,
/// made by the first request.
public final class WitnessTransport: Sendable {
    /// Redirects are not followed: a witness is the URL given, and answers there.
    private let http = LazyHTTPClient(maxConnections: 1, timeout: .seconds(20)) { $0.redirectConfiguration = .disallow }
    private static let maximumBodyBytes = 64 << 10

    public init() {}

    /// Sends `body` to the witness whose submission prefix is `prefix` (`https://…`, no trailing
    /// slash needed). Network failures are `TransportFailure`s; any HTTP answer is returned.
    public func addCheckpoint(_ body: String, prefix: String) async throws -> TransportResponse {
        let base = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        var request = HTTPClientRequest(url: base + "/add-checkpoint")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        request.headers.add(name: "User-Agent", value: "reel")
        request.body = .bytes(ByteBuffer(string: body))
        do {
            return try await http.response(to: request, maximumBody: Self.maximumBodyBytes)
        } catch {
            throw HTTPTransport.failure(from: error)
        }
    }

    public func shutdown() async { await http.shutdown() }
}
