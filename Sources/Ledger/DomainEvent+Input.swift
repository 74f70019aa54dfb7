extension DomainEvent {
    /// Checks an event that comes from outside this ledger (a Reel export being imported or
    /// verified) with exactly the checks the commands apply to what a person gives them: the
    /// handle, the TMDb id, the import source, the name, the photo reference and the language
    /// tag go through the same initialisers and checks as `--user`, `fav add`, `account import`,
    /// `settings name`, `settings photo` and `settings language`.
    ///
    /// Events read back from the ledger are not checked again: they were checked when made, and a
    /// tag the shipped list drops later must still read (`decodeCurrent`).
    public func checkAsInput() throws(DomainError) {
        switch self {
        case .accountOpened(let handle): _ = try AccountHandle(handle.value)
        case .favoriteAdded(let key), .favoriteRemoved(let key): _ = try MediaKey(key.mediaType, key.id)
        case .favoriteImported(let key, _, let source):
            _ = try MediaKey(key.mediaType, key.id)
            try ImportedFavorite.check(source: source)
        case .profileNameChanged(let name): _ = try ProfileName(typed: name.value)
        case .profilePhotoChanged(let photo): try photo.check()
        case .languageSwitched(let tag): _ = try LanguageTag(tag.value)
        case .profilePhotoRemoved, .accountDeleted, .accountMovedOut, .accountMovedIn: break
        }
    }
}
