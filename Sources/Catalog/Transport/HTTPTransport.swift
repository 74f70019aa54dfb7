import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import Synchronization

/// TMDb over HTTP: one shared AsyncHTTPClient (pooled, keep-alive connections), credentials
/// added here and nowhere else, so they never reach a cache key, a log line or an error. The
/// client (and NIO's event loops) start with the first request: a command answered from the
/// cache never starts them.
public final class HTTPTransport: CatalogTransport {
    public let baseURL: String
    private let credentials: Credentials
    private let http: LazyHTTPClient
    private let userAgent: String
    private static let maximumBodyBytes = 32 << 20

    /// - Parameters:
    ///   - baseURL: `https://api.themoviedb.org/3` or a TMDb-compatible server's equivalent.
    ///   - maxConnections: connections kept per host (TMDb allows about 20 per address).
    ///   - timeout: for the whole request, connect included.
    public init(baseURL: String, credentials: Credentials, maxConnections: Int, timeout: Duration = .seconds(20), userAgent: String = "reel") {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.credentials = credentials
        self.userAgent = userAgent
        http = LazyHTTPClient(maxConnections: maxConnections, timeout: timeout) { configuration in
            configuration.decompression = .enabled(limit: .ratio(50))
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
            return try await http.response(to: outgoing, maximumBody: Self.maximumBodyBytes)
        } catch {
            throw Self.failure(from: error)
        }
    }

    public func shutdown() async { await http.shutdown() }

    /// Maps AsyncHTTPClient's, NIO's and NIOSSL's errors to what a user can act on, by the
    /// error's type and code (never by the words of its description, which change between
    /// versions). The URL (which may hold an `api_key`) is never part of the description.
    static func failure(from error: any Error) -> TransportFailure {
        switch error {
        case let failure as TransportFailure: return failure
        case let client as HTTPClientError: return failure(from: client)
        case let channel as ChannelError: return failure(from: channel)
        case let io as IOError: return failure(errno: io.errnoCode)
        case let connect as NIOConnectionError: return failure(from: connect)
        case let unknown as SocketAddressError.UnknownHost: return .unresolvableHost(unknown.host)
        case is NIOHTTPDecoderError, is HTTPParserError: return .truncatedBody
        case let tls as NIOSSLError: return failure(from: tls)
        case let tls as NIOSSLExtraError: return .tls(String(describing: tls))
        case let tls as BoringSSLError: return .tls(String(describing: tls))
        // The peer never answered TLS's closing message: the connection ended uncleanly.
        case is NIOSSLCloseTimedOutError: return .connectionReset
        default: return .other("network error (\(type(of: error)))")
        }
    }

    private static func failure(from error: HTTPClientError) -> TransportFailure {
        switch error {
        case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout,
            .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return .timedOut
        case .remoteConnectionClosed: return .connectionReset
        case .bodyLengthMismatch: return .truncatedBody
        case .invalidURL, .emptyHost, .emptyScheme:
            return .other("the TMDb base URL is not a valid http(s) URL (REEL_TMDB_BASE_URL?)")
        default: return .other("network error (\(type(of: error)))")
        }
    }

    private static func failure(from error: ChannelError) -> TransportFailure {
        switch error {
        case .connectTimeout: .timedOut
        case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: .connectionReset
        default: .other("network error (\(type(of: error)))")
        }
    }

    /// A system call's failure on the connection.
    static func failure(errno code: Int32) -> TransportFailure {
        switch code {
        case ECONNREFUSED: .connectionRefused
        case ECONNRESET, EPIPE, ECONNABORTED: .connectionReset
        case ETIMEDOUT: .timedOut
        case ENETUNREACH, EHOSTUNREACH: .other("the TMDb host cannot be reached (no network?)")
        default: .other("network error (errno \(code))")
        }
    }

    /// Every address of the host failed: a host with no address at all does not resolve;
    /// otherwise a refusal of any address is a refusal, and the first address's failure says
    /// what happened to the others.
    private static func failure(from error: NIOConnectionError) -> TransportFailure {
        guard let first = error.connectionErrors.first else {
            if error.dnsAError != nil || error.dnsAAAAError != nil { return .unresolvableHost(error.host) }
            return .connectionRefused
        }
        for attempt in error.connectionErrors {
            if let io = attempt.error as? IOError, io.errnoCode == ECONNREFUSED { return .connectionRefused }
        }
        return failure(from: first.error)
    }

    private static func failure(from error: NIOSSLError) -> TransportFailure {
        switch error {
        case .handshakeFailed(let reason): .tls("the handshake failed (\(reason))")
        case .unableToValidateCertificate, .noCertificateToValidate, .cannotMatchULabel:
            .tls("the server's certificate could not be verified (\(error))")
        // The peer closed the connection without TLS's closing message.
        case .uncleanShutdown: .connectionReset
        default: .tls(String(describing: error))
        }
    }
}
