public import Reel

/// I/O the app asks for; the driver runs each on a task, and its result comes back as an
/// `AppMessage`. The screen never waits for one.
public enum AppEffect: Sendable, Equatable {
    /// Page `page` of the list of `mediaType` that `query` names (discover by popularity,
    /// descending, unless told otherwise).
    case loadPage(MediaType, page: Int, query: BrowseQuery = BrowseQuery())
    /// The Saved tab's (`SavedEffect`).
    case saved(SavedEffect)
    /// The Settings tab's (`SettingsEffect`).
    case settings(SettingsEffect)
    /// The account's language and the catalog in use.
    case loadStatus
    /// The Search tab's debounce and searches (`SearchUpdate`).
    case search(SearchEffect)
    /// Details, people and saving from the details screen (`DetailsUpdate`).
    case details(DetailsEffect)
    /// The preview pane's wait and details (`PreviewUpdate`).
    case preview(PreviewEffect)
    /// A picture fetched (through the image cache), decoded and rendered for its box, off the
    /// app's loop.
    case loadPicture(PictureKey)
    /// The same, from the image cache only (nothing fetched): a picture drawn ahead of being
    /// shown (the preview's poster while the cursor rests). Comes back loaded, or as
    /// `AppMessage.pictureNotCached`.
    case preparePicture(PictureKey)
}
