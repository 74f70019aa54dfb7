/// What comes back to the Saved tab (`AppMessage.saved`). Answers name the account they are
/// for: one for an account switched away from is dropped.
public enum SavedMessage: Sendable, Equatable {
    /// The saved list for `request`: its rows, how many are saved in all, the language titles are in.
    case loaded(SavedRequest, rows: [TitleRow], total: Int, language: String, account: String)
    case failed(SavedRequest, message: String, account: String)
    /// How far the answer to `request` has come (details, OMDb's scores), while it is read.
    case progress(SavedRequest, LoadProgress, account: String)
    case historyLoaded([HistoryLine], account: String)
    case historyFailed(String, account: String)
    /// A change was appended; `message` says what it did, as `reel fav` does.
    case changed(FavoriteChange, undoing: Bool, message: String, account: String)
    case changeFailed(FavoriteChange, undoing: Bool, message: String)
    /// The account changed (here or in another process): the list and history are read again.
    case accountChanged(account: String)
}
