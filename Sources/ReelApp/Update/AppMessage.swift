public import Reel

/// What happens to the app: a key, a new terminal size, or an effect's result coming back.
public enum AppMessage: Sendable, Equatable {
    case key(Key)
    case resized(width: Int, height: Int)
    /// A page of a browsed list arrived.
    case pageLoaded(MediaType, TitlePage)
    /// Asking for a page failed; why (one line).
    case pageFailed(MediaType, page: Int, message: String, query: BrowseQuery = BrowseQuery())
    /// An answer to the Saved tab (`SavedMessage`).
    case saved(SavedMessage)
    /// An answer to the Settings tab (`SettingsMessage`).
    case settings(SettingsMessage)
    /// The account's language and where titles come from.
    case statusLoaded(language: String, catalog: CatalogKind)
    /// The Search tab's debounce and searches came back (`SearchUpdate`).
    case search(SearchMessage)
    /// Details or a person came back (`DetailsUpdate`).
    case details(DetailsMessage)
    /// The preview pane's wait ended, or its details came back (`PreviewUpdate`).
    case preview(PreviewMessage)
    /// A picture asked for (`AppEffect.loadPicture`), rendered for its box.
    case pictureLoaded(PictureKey, DrawnPicture)
    /// A picture that cannot be had (offline and not cached, none at TMDb, a damaged file); why.
    case pictureFailed(PictureKey, reason: String)
    /// A picture drawn ahead (`AppEffect.preparePicture`) is not in the image cache: asked for
    /// properly if its box shows by now, else forgotten.
    case pictureNotCached(PictureKey)
    /// A note from the application core.
    case notice(String)
    /// SIGINT, SIGTERM or SIGHUP from elsewhere: end as ctrl-c does.
    case interrupted
}
