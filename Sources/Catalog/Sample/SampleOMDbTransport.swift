/// The sample catalog's OMDb facts as a transport, answered in-process by the responder the
/// `fake-tmdb` server uses for OMDb's API.
public struct SampleOMDbTransport: OMDbTransport {
    private let responder: SampleOMDbResponder

    public init(responder: SampleOMDbResponder = SampleOMDbResponder(catalog: .bundled)) {
        self.responder = responder
    }

    public func send(_ query: [QueryItem]) async throws -> TransportResponse {
        let answer = responder.respond(query: query)
        return TransportResponse(status: answer.status, headers: ["content-type": "application/json; charset=utf-8"], body: answer.body)
    }

    public func shutdown() async {}
}
