/// Sends one OMDb request (`i=tt0137523`, without the key) somewhere that speaks OMDb: the real
/// API over HTTP, or the sample catalog's facts in-process.
public protocol OMDbTransport: Sendable {
    /// Throws `TransportFailure` when no HTTP answer came back.
    func send(_ query: [QueryItem]) async throws -> TransportResponse

    /// Releases connections; the transport is not used afterwards.
    func shutdown() async
}
