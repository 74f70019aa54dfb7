/// Fetches an image by its full URL from wherever images are served: TMDb's image host over
/// HTTP, or the sample catalog's generated art in-process.
public protocol ImageTransport: Sendable {
    /// The response to `GET url`. Throws `TransportFailure` when no HTTP answer came back.
    func fetch(_ url: String) async throws -> TransportResponse

    /// Releases connections; the transport is not used afterwards.
    func shutdown() async

    /// Whether a fetch stays in this process (the sample's generated art): nothing goes on the
    /// network, so an image "at hand" (`ImageClient.cachedImage`) may be fetched through it.
    var isLocal: Bool { get }
}

extension ImageTransport {
    public var isLocal: Bool { false }
}
