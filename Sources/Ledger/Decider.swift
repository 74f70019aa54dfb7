/// Decisions: a command and an account's current state in, the events to append out.
///
/// Idempotent: adding what is saved, removing what is not, or setting what is already set appends
/// nothing and says so. The first command that changes something for a new handle opens the
/// account (`openAccount` does only that); a deleted account accepts nothing.
public enum Decider {
    /// `state` is `nil` when the handle has no open account.
    public static func decide(_ command: Command, for handle: AccountHandle, state: AccountState?) throws(DomainError) -> Decision {
        if let state, state.status == .deleted { throw .accountDeleted(handle.value) }
        if let state, state.status == .moved { throw .accountMoved(handle.value) }
        let current = state ?? AccountState()
        var events: [DomainEvent] = []
        var outcomes: [Outcome] = []

        switch command {
        case .addFavorites(let keys):
            for key in unique(keys) {
                if current.saved.contains(key) {
                    outcomes.append(.alreadySaved(key))
                } else {
                    events.append(.favoriteAdded(key))
                    outcomes.append(.favoriteAdded(key))
                }
            }
        case .importFavorites(let favorites, let source):
            try ImportedFavorite.check(source: source)
            var seen = Set<MediaKey>()
            for favorite in favorites where seen.insert(favorite.key).inserted {
                if current.saved.contains(favorite.key) {
                    outcomes.append(.alreadySaved(favorite.key))
                } else {
                    events.append(.favoriteImported(favorite.key, addedAt: favorite.addedAt, source: source))
                    outcomes.append(.favoriteAdded(favorite.key))
                }
            }
        case .removeFavorites(let keys):
            for key in unique(keys) {
                if current.saved.contains(key) {
                    events.append(.favoriteRemoved(key))
                    outcomes.append(.favoriteRemoved(key))
                } else {
                    outcomes.append(.notSaved(key))
                }
            }
        case .rename(let name):
            if current.settings.name == name {
                outcomes.append(.nameUnchanged(name))
            } else {
                events.append(.profileNameChanged(name))
                outcomes.append(.nameChanged(name))
            }
        case .changePhoto(let photo):
            try photo.check()
            if current.settings.photo == photo {
                outcomes.append(.photoUnchanged)
            } else {
                events.append(.profilePhotoChanged(photo))
                outcomes.append(.photoChanged(photo))
            }
        case .removePhoto:
            if current.settings.photo == nil {
                outcomes.append(.noPhotoToRemove)
            } else {
                events.append(.profilePhotoRemoved)
                outcomes.append(.photoRemoved)
            }
        case .switchLanguage(let tag):
            if current.settings.language == tag {
                outcomes.append(.languageUnchanged(tag))
            } else {
                events.append(.languageSwitched(tag))
                outcomes.append(.languageSwitched(tag))
            }
        case .deleteAccount:
            if state == nil {
                outcomes.append(.noAccount(handle))
            } else {
                events.append(.accountDeleted)
                outcomes.append(.accountDeleted(handle))
            }
        case .openAccount:
            // A new handle: the opening below is the whole decision.
            if state != nil { outcomes.append(.accountExists(handle)) }
        }

        if state == nil, !events.isEmpty || command == .openAccount {
            events.insert(.accountOpened(handle), at: 0)
            outcomes.insert(.accountOpened(handle), at: 0)
        }
        return Decision(events: events, outcomes: outcomes)
    }

    /// The keys in the order given, each once.
    static func unique(_ keys: [MediaKey]) -> [MediaKey] {
        var seen = Set<MediaKey>()
        return keys.filter { seen.insert($0).inserted }
    }
}
