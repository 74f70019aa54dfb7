// PLACEHOLDER until the omdb-sample branch lands (replaced by its file at the merge).
public struct SampleOMDbResponder: Sendable {
    public init(catalog: SampleCatalog) {}
    public func respond(query: [QueryItem]) -> SampleResponder.Answer {
        SampleResponder.Answer(status: 200, body: Array(#"{"Response":"False","Error":"Incorrect IMDb ID."}"#.utf8))
    }
}
