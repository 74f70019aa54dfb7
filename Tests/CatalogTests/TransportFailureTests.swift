import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing
@testable import Catalog

#if canImport(Glibc)
import Glibc
#endif

/// AsyncHTTPClient's, NIO's and NIOSSL's errors are classified by their type and code. (A
/// refused connection, a host that does not resolve and a timeout are also met for real in
/// `CatalogClientTests`.)
@Suite struct TransportFailureTests {
    private func failure(_ error: any Error) -> TransportFailure { HTTPTransport.failure(from: error) }

    @Test func timeouts() {
        for error: HTTPClientError in [
            .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout,
            .socksHandshakeTimeout, .httpProxyHandshakeTimeout,
        ] {
            #expect(failure(error) == .timedOut, "\(error)")
        }
        #expect(failure(ChannelError.connectTimeout(.seconds(5))) == .timedOut)
        #expect(failure(IOError(errnoCode: ETIMEDOUT, reason: "connect")) == .timedOut)
    }

    @Test func refusals() {
        #expect(failure(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .connectionRefused)
    }

    @Test func resets() {
        #expect(failure(HTTPClientError.remoteConnectionClosed) == .connectionReset)
        for error: ChannelError in [.eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed] {
            #expect(failure(error) == .connectionReset, "\(error)")
        }
        for code in [ECONNRESET, EPIPE, ECONNABORTED] {
            #expect(failure(IOError(errnoCode: code, reason: "read")) == .connectionReset, "errno \(code)")
        }
        #expect(failure(NIOSSLError.uncleanShutdown) == .connectionReset)
    }

    @Test func truncatedBodies() {
        #expect(failure(HTTPClientError.bodyLengthMismatch) == .truncatedBody)
        #expect(failure(HTTPParserError.invalidEOFState) == .truncatedBody)
    }

    @Test func tlsFailuresAreNotRetried() {
        for error in [
            failure(NIOSSLError.handshakeFailed(.sslError([]))),
            failure(NIOSSLError.unableToValidateCertificate),
            failure(NIOSSLExtraError.failedToValidateHostname),
            failure(BoringSSLError.sslError([])),
        ] {
            guard case .tls = error else {
                Issue.record("\(error) is not a TLS failure")
                continue
            }
            #expect(!error.isTransient)
        }
    }

    @Test func badBaseURLs() {
        for error: HTTPClientError in [.invalidURL, .emptyHost, .emptyScheme] {
            #expect(failure(error) == .other("the TMDb base URL is not a valid http(s) URL (REEL_TMDB_BASE_URL?)"), "\(error)")
        }
    }

    /// Whatever the words of an error's description, only its type decides: a refusal is no
    /// longer found in an unknown error that happens to say "refused".
    @Test func unknownErrorsAreNotReadForWords() {
        struct Odd: Error, CustomStringConvertible { var description: String { "connection refused, ssl, DNS Resolution" } }
        #expect(failure(Odd()) == .other("network error (Odd)"))
        #expect(failure(IOError(errnoCode: ENETUNREACH, reason: "connect")) == .other("the TMDb host cannot be reached (no network?)"))
        #expect(failure(IOError(errnoCode: EIO, reason: "read")) == .other("network error (errno \(EIO))"))
    }
}
