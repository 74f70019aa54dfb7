/// Retries: the decision a command made, read back from the events it appended.
extension Decider {
    /// The decision `command` made for `handle` when it appended `events` (a request retried under
    /// its idempotency key): the same events and the outcomes the first answer had, in the
    /// `decide` order. What appended nothing for an item (already saved, not saved) is what the
    /// command's items without an event were. `nil` when `command` could not have appended exactly
    /// `events`: the key was used for a different request.
    ///
    /// It reads nothing but the events: the account's history before them need not be replayed,
    /// so answering a retry costs as little as the retry's own events, however long the history.
    public static func decision(of command: Command, for handle: AccountHandle, appended events: [DomainEvent]) -> Decision? {
        var rest = events[...]
        var outcomes: [Outcome] = []
        if rest.first == .accountOpened(handle) {
            rest.removeFirst()
            outcomes.append(.accountOpened(handle))
        }
        /// Takes `event` off the front when it is next: the command appended it.
        func took(_ event: DomainEvent) -> Bool {
            guard rest.first == event else { return false }
            rest.removeFirst()
            return true
        }
        switch command {
        case .addFavorites(let keys):
            for key in unique(keys) { outcomes.append(took(.favoriteAdded(key)) ? .favoriteAdded(key) : .alreadySaved(key)) }
        case .importFavorites(let favorites, let source):
            var seen = Set<MediaKey>()
            for favorite in favorites where seen.insert(favorite.key).inserted {
                let imported = DomainEvent.favoriteImported(favorite.key, addedAt: favorite.addedAt, source: source)
                outcomes.append(took(imported) ? .favoriteAdded(favorite.key) : .alreadySaved(favorite.key))
            }
        case .removeFavorites(let keys):
            for key in unique(keys) { outcomes.append(took(.favoriteRemoved(key)) ? .favoriteRemoved(key) : .notSaved(key)) }
        case .rename(let name):
            guard took(.profileNameChanged(name)) else { return nil }
            outcomes.append(.nameChanged(name))
        case .changePhoto(let photo):
            guard took(.profilePhotoChanged(photo)) else { return nil }
            outcomes.append(.photoChanged(photo))
        case .removePhoto:
            guard took(.profilePhotoRemoved) else { return nil }
            outcomes.append(.photoRemoved)
        case .switchLanguage(let tag):
            guard took(.languageSwitched(tag)) else { return nil }
            outcomes.append(.languageSwitched(tag))
        case .deleteAccount:
            guard took(.accountDeleted) else { return nil }
            outcomes.append(.accountDeleted(handle))
        case .openAccount:
            // The one command whose events are the opening alone.
            guard outcomes == [.accountOpened(handle)], rest.isEmpty else { return nil }
            return Decision(events: events, outcomes: outcomes)
        }
        // Every event explained, and at least one besides the opening (which never comes alone).
        guard rest.isEmpty, events.count > (events.first == .accountOpened(handle) ? 1 : 0) else { return nil }
        return Decision(events: events, outcomes: outcomes)
    }
}
