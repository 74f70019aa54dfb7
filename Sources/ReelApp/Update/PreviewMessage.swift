public import Reel

/// The preview pane's answers (`PreviewUpdate`).
public enum PreviewMessage: Sendable, Equatable {
    /// A wait begun at `generation` ended.
    case settled(generation: Int)
    /// The shorter wait begun at `generation` ended: the poster is drawn ahead from the cache.
    case resting(generation: Int)
    case loaded(TitleDetails)
    case failed(MediaKey, message: String)
}
