import Reel

extension EffectRunner {
    /// The screens' effects: details (with similar titles) and a person.
    func run(_ effect: DetailsEffect) async -> DetailsMessage {
        switch effect {
        case .loadTitle(let key):
            do {
                return .titleLoaded(TitleDetails(try await application.titleDetails(key, similar: true, for: handle)))
            } catch {
                return .titleFailed(key, message: Self.describe(error))
            }
        case .openLink(let url):
            return await browser.open(url)
        case .loadPerson(let id):
            do {
                return .personLoaded(PersonPage(try await application.person(String(id), for: handle)))
            } catch {
                return .personFailed(id: id, message: Self.describe(error))
            }
        }
    }
}
