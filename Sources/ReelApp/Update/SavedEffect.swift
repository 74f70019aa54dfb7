/// I/O the Saved tab asks for (`AppEffect.saved`), on the core's use cases as `reel saved`,
/// `reel history` and `reel fav` call them.
public enum SavedEffect: Sendable, Equatable {
    /// The hydrated saved list as the request says (`Application.savedList`).
    case load(SavedRequest)
    /// The account's events in words (`Application.history`).
    case loadHistory
    /// A title saved or removed (`Application.addFavorites`, `removeFavorites`); `undoing`: the
    /// inverse of the last change, which `u` asked for.
    case change(FavoriteChange, undoing: Bool)
    /// Follow the account's changes, made here or by another process (`Application.accountChanges`);
    /// a second one replaces the first (after the account switched).
    case watch
}
