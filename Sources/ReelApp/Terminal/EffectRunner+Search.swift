import Reel

extension EffectRunner {
    /// The Search tab's effects: the debounce's wait, a search, the default person.
    func run(_ effect: SearchEffect) async -> SearchMessage {
        switch effect {
        case .debounce(let generation):
            try? await Task.sleep(for: .milliseconds(SearchEffect.debounceMilliseconds))
            return .due(generation: generation)
        case .find(let text, let filter, let generation, let page):
            do {
                let report = try await application.search(SearchQuery(text, kind: filter.kind, page: page), for: handle)
                return .found(generation: generation, report.results.map(SearchResult.init), page: page, totalPages: report.paging.totalPages)
            } catch {
                return .failed(generation: generation, message: Self.describe(error))
            }
        case .loadDefaultPerson:
            do {
                return .defaultPersonLoaded(PersonPage(try await application.person(String(SearchState.defaultPersonID), for: handle)))
            } catch {
                return .defaultPersonFailed(Self.describe(error))
            }
        }
    }
}
