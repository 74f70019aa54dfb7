/// Sends one catalog request somewhere that speaks TMDb: the real API over HTTP, or the bundled
/// sample catalog in-process.
public protocol CatalogTransport: Sendable {
    /// Sends `request`, conditionally when `ifNoneMatch` carries a cached ETag. Throws
    /// `TransportFailure` when no HTTP answer came back.
    func send(_ request: CatalogRequest, ifNoneMatch: String?) async throws -> TransportResponse

    /// Releases connections; the transport is not used afterwards.
    func shutdown() async
}
