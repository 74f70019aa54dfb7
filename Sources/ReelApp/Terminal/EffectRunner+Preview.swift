import Reel

extension EffectRunner {
    /// The preview pane's effects: the wait for the cursor to rest, a title's details.
    func run(_ effect: PreviewEffect) async -> PreviewMessage {
        switch effect {
        case .settle(let generation):
            try? await Task.sleep(for: .milliseconds(PreviewEffect.settleMilliseconds))
            return .settled(generation: generation)
        case .prepare(let generation):
            try? await Task.sleep(for: .milliseconds(PreviewEffect.prepareMilliseconds))
            return .resting(generation: generation)
        case .load(let key):
            do {
                return .loaded(TitleDetails(try await application.titleDetails(key, similar: true, for: handle)))
            } catch {
                return .failed(key, message: Self.describe(error))
            }
        }
    }
}
