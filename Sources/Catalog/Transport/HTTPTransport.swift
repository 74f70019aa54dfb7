import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import Synchronization

/// TMDb over HTTP: one shared AsyncHTTPClient (pooled, keep-alive connections), credentials
/// added here and nowhere else, so they never reach a cache key, a log line or an error. The
/// client (and NIO's event loops) start with the first request: a command answered from the
/// cache never starts them.
public final class HTTPTransport: CatalogTransport {
    public let baseURL: String
    private let credentials: Credentials
    private let configuration: HTTPClient.Configuration
    private let started = Mutex<HTTPClient?>(nil)
    private let timeout: TimeAmount
    private let userAgent: String
    private static let maximumBodyBytes = 32 << 20

    /// - Parameters:
    ///   - baseURL: `https://api.themoviedb.org/3` or a TMDb-compatible server's equivalent.
    ///   - maxConnections: connections kept per host (TMDb allows about 20 per address).
    ///   - timeout: for the whole request, connect included.
    public init(baseURL: String, credentials: Credentials, maxConnections: Int, timeout: Duration = .seconds(20), userAgent: String = "reel") {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.credentials = credentials
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        self.userAgent = userAgent
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, maxConnections)
        )
        // A refused connection fails the request at once; Reel's own retry policy decides what
        // happens next (AsyncHTTPClient would otherwise keep trying until the deadline).
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(5), read: self.timeout)
        configuration.decompression = .enabled(limit: .ratio(50))
        configuration.httpVersion = .http1Only
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

    public func send(_ request: CatalogRequest, ifNoneMatch: String?) async throws -> TransportResponse {
        var query = request.query
        if case .apiKey(let key) = credentials { query.append(QueryItem("api_key", key)) }
        let url = baseURL + request.path + (query.isEmpty ? "" : "?" + query.map(\.encoded).joined(separator: "&"))
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = .GET
        outgoing.headers.add(name: "Accept", value: "application/json")
        outgoing.headers.add(name: "Accept-Encoding", value: "gzip")
        outgoing.headers.add(name: "User-Agent", value: userAgent)
        if case .bearer(let token) = credentials { outgoing.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let ifNoneMatch { outgoing.headers.add(name: "If-None-Match", value: ifNoneMatch) }
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maximumBodyBytes)
            var headers: [String: String] = [:]
            for (name, value) in response.headers { headers[name.lowercased()] = value }
            return TransportResponse(status: Int(response.status.code), headers: headers, body: Array(buffer: body))
        } catch {
            throw Self.failure(from: error)
        }
    }

    public func shutdown() async {
        guard let client = started.withLock({ $0 }) else { return }
        try? await client.shutdown()
    }

    /// Maps AsyncHTTPClient's and NIO's errors to what a user can act on. The URL (which may hold
    /// an `api_key`) is never part of the description.
    static func failure(from error: any Error) -> TransportFailure {
        if let failure = error as? TransportFailure { return failure }
        if let e = error as? HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout].contains(e) { return .timedOut }
            if e == .remoteConnectionClosed { return .connectionReset }
            if e == .bodyLengthMismatch { return .truncatedBody }
            if e == .invalidURL || e == .emptyHost { return .other("the TMDb base URL is not a valid http(s) URL (REEL_TMDB_BASE_URL?)") }
        }
        if let channelError = error as? ChannelError {
            switch channelError {
            case .connectTimeout: return .timedOut
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return .connectionReset
            default: break
            }
        }
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: return .connectionRefused
            case ECONNRESET, EPIPE: return .connectionReset
            case ETIMEDOUT: return .timedOut
            default: return .other("network error (errno \(io.errnoCode))")
            }
        }
        if let connect = error as? NIOConnectionError {
            if connect.dnsAError != nil || connect.dnsAAAAError != nil, connect.connectionErrors.isEmpty {
                return .unresolvableHost(connect.host)
            }
            for attempt in connect.connectionErrors {
                if let io = attempt.error as? IOError, io.errnoCode == ECONNREFUSED { return .connectionRefused }
            }
            return .connectionRefused
        }
        if error is NIOHTTPDecoderError || error is HTTPParserError { return .truncatedBody }
        let text = String(describing: error)
        if text.contains("Refused") || text.contains("refused") { return .connectionRefused }
        if text.lowercased().contains("ssl") || text.lowercased().contains("tls") || text.contains("certificate") {
            return .tls(String(describing: type(of: error)))
        }
        if text.contains("Resolution") || text.contains("getaddrinfo") || text.contains("DNS") {
            return .unresolvableHost("the TMDb host")
        }
        return .other("network error (\(type(of: error)))")
    }
}
