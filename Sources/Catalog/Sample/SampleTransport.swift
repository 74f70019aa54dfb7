/// The bundled sample catalog as a transport: requests are answered in-process by the same
/// responder the `fake-tmdb` server uses, so the sample goes through the same decoding as TMDb.
/// (Lists of titles skip it: `CatalogClient.summaries` reads the sample's facts directly.)
public struct SampleTransport: CatalogTransport {
    private let responder: SampleResponder

    public init(responder: SampleResponder = SampleResponder(catalog: .bundled)) {
        self.responder = responder
    }

    public func send(_ request: CatalogRequest, ifNoneMatch: String?) async throws -> TransportResponse {
        let answer = responder.respond(path: request.path, query: request.query)
        return TransportResponse(status: answer.status, headers: ["content-type": "application/json;charset=utf-8"], body: answer.body)
    }

    public func shutdown() async {}
}
