import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Images over HTTP: a client of its own (TMDb's image host is not the API host), no credentials
/// ever (the image host needs none, so a token never travels to it), a few pooled connections,
/// and a bound on the body so a runaway answer cannot fill memory.
public final class HTTPImageTransport: ImageTransport {
    /// 25 MB: TMDb's largest originals are a few megabytes.
    public static let maximumBodyBytes = 25 << 20
    private let configuration: HTTPClient.Configuration
    private let started = Mutex<HTTPClient?>(nil)
    private let timeout: TimeAmount

    public init(maxConnections: Int, timeout: Duration = .seconds(20)) {
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, maxConnections))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(5), read: self.timeout)
        configuration.httpVersion = .http1Only
        configuration.redirectConfiguration = .follow(max: 3, allowCycles: false)
        self.configuration = configuration
    }

    private var client: HTTPClient {
        started.withLock { started in
            if let started { return started }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            started = client
            return client
        }
    }

    public func fetch(_ url: String) async throws -> TransportResponse {
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = .GET
        outgoing.headers.add(name: "Accept", value: "image/jpeg, image/png")
        outgoing.headers.add(name: "User-Agent", value: "reel")
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maximumBodyBytes)
            var headers: [String: String] = [:]
            for (name, value) in response.headers { headers[name.lowercased()] = value }
            return TransportResponse(status: Int(response.status.code), headers: headers, body: Array(buffer: body))
        } catch is NIOTooManyBytesError {
            throw TransportFailure.other("the image is larger than \(Self.maximumBodyBytes >> 20) MB")
        } catch {
            throw HTTPTransport.failure(from: error)
        }
    }

    public func shutdown() async {
        guard let client = started.withLock({ $0 }) else { return }
        try? await client.shutdown()
    }
}
