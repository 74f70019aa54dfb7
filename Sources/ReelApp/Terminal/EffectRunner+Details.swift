import Reel

extension EffectRunner {
    /// The screens' effects: details (with similar titles), a person, and saving or removing,
    /// which says so only once the application core appended the event.
    func run(_ effect: DetailsEffect) async -> DetailsMessage {
        switch effect {
        case .loadTitle(let key):
            do {
                return .titleLoaded(TitleDetails(try await application.titleDetails(key, similar: true, for: handle)))
            } catch {
                return .titleFailed(key, message: Self.describe(error))
            }
        case .loadPerson(let id):
            do {
                return .personLoaded(PersonPage(try await application.person(String(id), for: handle)))
            } catch {
                return .personFailed(id: id, message: Self.describe(error))
            }
        case .setSaved(let key, let save):
            do {
                let report = try await changing { account in
                    save
                        ? try await application.addFavorites([key], for: account, requestKey: nil)
                        : try await application.removeFavorites([key], for: account, requestKey: nil)
                }
                let name = report.titles[key].map { "\(key) \($0.label)" } ?? key.description
                let notes = report.notes.map { " (\($0))" }.joined()
                return .savedChanged(key, saved: save, note: (save ? "saved " : "removed ") + name + notes)
            } catch {
                return .saveFailed(key, message: Self.describe(error))
            }
        }
    }
}
