import Failures
/// What a command did, or why it did nothing, item by item.
public enum Outcome: Sendable, Hashable {
    case accountOpened(AccountHandle)
    case favoriteAdded(MediaKey)
    case alreadySaved(MediaKey)
    case favoriteRemoved(MediaKey)
    case notSaved(MediaKey)
    case nameChanged(ProfileName)
    case nameUnchanged(ProfileName)
    case photoChanged(PhotoReference)
    case photoUnchanged
    case photoRemoved
    case noPhotoToRemove
    case languageSwitched(LanguageTag)
    case languageUnchanged(LanguageTag)
    case accountDeleted(AccountHandle)
    case noAccount(AccountHandle)
    /// `openAccount` for a handle whose account is open already.
    case accountExists(AccountHandle)

    /// Whether this outcome appended an event.
    public var changed: Bool {
        switch self {
        case .accountOpened, .favoriteAdded, .favoriteRemoved, .nameChanged, .photoChanged, .photoRemoved,
            .languageSwitched, .accountDeleted:
            true
        default: false
        }
    }

    /// A stable name for scripts (`--json`).
    public var kind: String {
        switch self {
        case .accountOpened: "account-opened"
        case .favoriteAdded: "favorite-added"
        case .alreadySaved: "already-saved"
        case .favoriteRemoved: "favorite-removed"
        case .notSaved: "not-saved"
        case .nameChanged: "name-changed"
        case .nameUnchanged: "name-unchanged"
        case .photoChanged: "photo-changed"
        case .photoUnchanged: "photo-unchanged"
        case .photoRemoved: "photo-removed"
        case .noPhotoToRemove: "no-photo"
        case .languageSwitched: "language-switched"
        case .languageUnchanged: "language-unchanged"
        case .accountDeleted: "account-deleted"
        case .noAccount: "no-account"
        case .accountExists: "account-exists"
        }
    }

    public var message: String {
        switch self {
        case .accountOpened(let handle): "opened the account '\(handle)'"
        case .favoriteAdded(let key): "added \(key)"
        case .alreadySaved(let key): "\(key) is already saved; nothing to do"
        case .favoriteRemoved(let key): "removed \(key)"
        case .notSaved(let key): "\(key) is not saved; nothing to do"
        case .nameChanged(let name): "name set to \"\(name)\""
        case .nameUnchanged(let name): "the name is already \"\(name)\"; nothing to do"
        case .photoChanged(let photo): "photo set (\(photo.width)x\(photo.height), \(GroupedDigits.of(photo.bytes)) bytes)"
        case .photoUnchanged: "this photo is already set; nothing to do"
        case .photoRemoved: "photo removed"
        case .noPhotoToRemove: "there is no photo; nothing to do"
        case .languageSwitched(let tag): "language set to \(tag) (\(tag.languageName))"
        case .languageUnchanged(let tag): "the language is already \(tag); nothing to do"
        case .accountDeleted(let handle): "deleted the account '\(handle)'"
        case .noAccount(let handle): "there is no account '\(handle)'; nothing to do"
        case .accountExists(let handle): "the account '\(handle)' is open already; nothing to do"
        }
    }

    /// The item an outcome is about, when it is about a title.
    public var mediaKey: MediaKey? {
        switch self {
        case .favoriteAdded(let key), .alreadySaved(let key), .favoriteRemoved(let key), .notSaved(let key): key
        default: nil
        }
    }
}
