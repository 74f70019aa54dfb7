public import Reel

/// What came back for the screens over the tabs.
public enum DetailsMessage: Sendable, Equatable {
    case titleLoaded(TitleDetails)
    case titleFailed(MediaKey, message: String)
    case personLoaded(PersonPage)
    case personFailed(id: Int, message: String)
}
