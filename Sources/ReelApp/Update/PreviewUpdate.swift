import Reel

/// The preview pane's logic: when the title under the cursor changes, wait for the cursor to
/// rest (`PreviewEffect.settle`); when it has, its poster shows (a picture on screen like any
/// other, `PictureLayout`) and its details are asked for, once.
enum PreviewUpdate {
    /// After every message: a new title under the cursor starts a wait.
    static func fill(_ model: inout AppModel) -> [AppEffect] {
        let key = PreviewPane.subject(model)?.key
        guard key != model.preview.wanted else { return [] }
        model.preview.wanted = key
        model.preview.settled = nil
        model.preview.generation += 1
        guard key != nil else { return [] }
        let generation = model.preview.generation
        // The poster is drawn ahead once the cursor rests a little (from the cache only), and
        // shown once it rests long enough.
        return PreviewPane.posterRows(model) != nil
            ? [.preview(.prepare(generation: generation)), .preview(.settle(generation: generation))]
            : [.preview(.settle(generation: generation))]
    }

    static func message(_ message: PreviewMessage, _ model: inout AppModel) -> [AppEffect] {
        switch message {
        case .settled(let generation):
            guard generation == model.preview.generation, let key = model.preview.wanted else { return [] }
            model.preview.settled = key
            // The poster, now that it shows (`PictureLayout`), and the details when not known.
            let poster = PictureUpdate.fill(&model)
            guard model.preview.request(key) else { return poster }
            return poster + [.preview(.load(key))]
        case .resting(let generation):
            guard generation == model.preview.generation, let key = PreviewPane.posterKey(model), model.pictures.request(key) else { return [] }
            return [.preparePicture(key)]
        case .loaded(let details):
            model.preview.answer(details.key, .loaded(details))
        case .failed(let key, let message):
            model.preview.answer(key, .failed(message))
        }
        return []
    }

    /// `r` where the pane shows details that failed: asked for again.
    static func retry(_ model: inout AppModel) -> [AppEffect] {
        guard let key = model.preview.wanted, case .failed? = model.preview[key] else { return [] }
        model.preview.forgetFailure(key)
        _ = model.preview.request(key)
        return [.preview(.load(key))]
    }
}
