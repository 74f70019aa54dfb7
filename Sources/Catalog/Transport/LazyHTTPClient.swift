import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// One AsyncHTTPClient for a transport, made with Reel's rules and started by the first request
/// (a command answered from a cache never starts NIO's event loops): pooled keep-alive HTTP/1.1
/// connections, at most `maxConnections` per host, a refused connection failing at once (Reel's
/// retry policy decides what happens next; AsyncHTTPClient would otherwise keep trying until the
/// deadline), and a read timeout for the whole request.
final class LazyHTTPClient: Sendable {
    let timeout: TimeAmount
    private let configuration: HTTPClient.Configuration
    private let started = Mutex<HTTPClient?>(nil)

    init(maxConnections: Int, timeout: Duration, adjust: (inout HTTPClient.Configuration) -> Void = { _ in }) {
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, maxConnections))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(5), read: self.timeout)
        configuration.httpVersion = .http1Only
        adjust(&configuration)
        self.configuration = configuration
    }

    /// The client, started on first use.
    var client: HTTPClient {
        started.withLock { started in
            if let started { return started }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            started = client
            return client
        }
    }

    /// Sends `request` and reads the whole answer, its body up to `maximumBody` bytes (more is
    /// AsyncHTTPClient's `NIOTooManyBytesError`). Errors are the client's own: callers map them.
    ///
    /// A URL whose port is no port (above 65535) is refused here, before the client (whose
    /// address parsing traps on it); and the whole exchange, body included, ends by the timeout:
    /// a server that answers a byte a second is not waited on for ever.
    func response(to request: HTTPClientRequest, maximumBody: Int) async throws -> TransportResponse {
        if let port = URLComponents(string: request.url)?.port, !(1...65_535).contains(port) {
            throw TransportFailure.other("the URL's port \(port) is not a port (1 to 65535)")
        }
        let client = self.client
        let timeout = self.timeout
        return try await withThrowingTaskGroup(of: TransportResponse?.self) { group in
            group.addTask {
                let response = try await client.execute(request, timeout: timeout)
                let body: ByteBuffer
                do {
                    body = try await response.body.collect(upTo: maximumBody)
                } catch is NIOTooManyBytesError {
                    throw TransportFailure.other("the answer is larger than \(maximumBody / 1024) KB")
                }
                var headers: [String: String] = [:]
                for (name, value) in response.headers { headers[name] = value }
                return TransportResponse(status: Int(response.status.code), headers: headers, body: Array(buffer: body))
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, timeout.nanoseconds)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else { throw TransportFailure.timedOut }
            return answer
        }
    }

    /// Shuts the client down if it was started.
    func shutdown() async {
        guard let client = started.withLock({ $0 }) else { return }
        try? await client.shutdown()
    }
}
