import Failures
public import JSONKit

/// Everything that can happen to an account: the events of Reel's domain, schema version 1.
///
/// Each has a JSON Schema in `Schemas/events/<type>.v<version>.schema.json`.
public enum DomainEvent: Sendable, Hashable {
    case accountOpened(AccountHandle)
    case favoriteAdded(MediaKey)
    /// A title saved by an import, keeping when it was first saved where it came from (another
    /// Reel ledger, Letterboxd, IMDb, Trakt): the saved list orders and dates it by `addedAt`.
    case favoriteImported(MediaKey, addedAt: Int64, source: String)
    case favoriteRemoved(MediaKey)
    case profileNameChanged(ProfileName)
    case profilePhotoChanged(PhotoReference)
    case profilePhotoRemoved
    case languageSwitched(LanguageTag)
    case accountDeleted

    /// The event type as stored in the envelope.
    public var type: String {
        switch self {
        case .accountOpened: "account-opened"
        case .favoriteAdded: "favorite-added"
        case .favoriteImported: "favorite-imported"
        case .favoriteRemoved: "favorite-removed"
        case .profileNameChanged: "profile-name-changed"
        case .profilePhotoChanged: "profile-photo-changed"
        case .profilePhotoRemoved: "profile-photo-removed"
        case .languageSwitched: "language-switched"
        case .accountDeleted: "account-deleted"
        }
    }

    /// The type of the event that closes an account's stream for good (its key is destroyed).
    public static let accountDeletedType = "account-deleted"

    /// Every type this version of Reel writes, with the schema version it writes.
    public static let currentVersions: [String: UInt16] = [
        "account-opened": 1, "favorite-added": 1, "favorite-imported": 1, "favorite-removed": 1, "profile-name-changed": 1,
        "profile-photo-changed": 1, "profile-photo-removed": 1, "language-switched": 1, "account-deleted": 1,
    ]

    public var schemaVersion: UInt16 { Self.currentVersions[type]! }

    /// The payload as written (current schema version).
    public var payload: JSONValue {
        switch self {
        case .accountOpened(let handle): ["handle": .string(handle.value)]
        case .favoriteAdded(let key), .favoriteRemoved(let key): ["mediaType": .string(key.mediaType.rawValue), "id": .integer(key.id)]
        case .favoriteImported(let key, let addedAt, let source):
            ["mediaType": .string(key.mediaType.rawValue), "id": .integer(key.id), "addedAt": .string(UTCTime.iso(addedAt)), "source": .string(source)]
        case .profileNameChanged(let name): ["name": .string(name.value)]
        case .profilePhotoChanged(let photo): ["photo": photo.json]
        case .languageSwitched(let tag): ["language": .string(tag.value)]
        case .profilePhotoRemoved, .accountDeleted: [:]
        }
    }

    /// What happened, in words, for `reel history`.
    public var summary: String {
        switch self {
        case .accountOpened(let handle): "opened the account '\(handle)'"
        case .favoriteAdded(let key): "added \(key)"
        case .favoriteImported(let key, let addedAt, let source): "added \(key) (imported from \(source); first saved \(UTCTime.iso(addedAt).prefix(10)))"
        case .favoriteRemoved(let key): "removed \(key)"
        case .profileNameChanged(let name): "changed name to \"\(name)\""
        case .profilePhotoChanged(let photo):
            "changed photo (\(photo.contentType == "image/png" ? "PNG" : "JPEG"), \(photo.width)x\(photo.height), \(GroupedDigits.of(photo.bytes)) bytes)"
        case .profilePhotoRemoved: "removed photo"
        case .languageSwitched(let tag): "switched language to \(tag) (\(tag.languageName))"
        case .accountDeleted: "deleted the account"
        }
    }

    /// Decodes a current-version payload; stored events come here through `EventDecoder`.
    static func decodeCurrent(type: String, payload: JSONValue) throws -> DomainEvent? {
        func key() throws -> MediaKey {
            guard let media = payload["mediaType"]?.stringValue.flatMap(MediaType.init(rawValue:)),
                let id = payload["id"]?.integerValue
            else { throw DecodeFailure("expected mediaType (movie or tv) and id") }
            return try MediaKey(media, id)
        }
        switch type {
        case "account-opened":
            guard let handle = payload["handle"]?.stringValue else { throw DecodeFailure("expected handle") }
            return .accountOpened(try AccountHandle(handle))
        case "favorite-added": return .favoriteAdded(try key())
        case "favorite-imported":
            guard let time = payload["addedAt"]?.stringValue.flatMap(UTCTime.parse) else { throw DecodeFailure("expected addedAt (RFC 3339 UTC)") }
            guard let source = payload["source"]?.stringValue, !source.isEmpty else { throw DecodeFailure("expected source") }
            return .favoriteImported(try key(), addedAt: time, source: source)
        case "favorite-removed": return .favoriteRemoved(try key())
        case "profile-name-changed":
            guard let name = payload["name"]?.stringValue else { throw DecodeFailure("expected name") }
            return .profileNameChanged(try ProfileName(name))
        case "profile-photo-changed":
            guard let photo = payload["photo"].flatMap(PhotoReference.init(json:)) else { throw DecodeFailure("expected photo") }
            return .profilePhotoChanged(photo)
        case "profile-photo-removed": return .profilePhotoRemoved
        case "language-switched":
            // Stored tags are trusted as written: a tag the shipped list drops later still reads.
            guard let tag = payload["language"]?.stringValue, !tag.isEmpty else { throw DecodeFailure("expected language") }
            return .languageSwitched(LanguageTag(unchecked: tag))
        case "account-deleted": return .accountDeleted
        default: return nil
        }
    }
}

struct DecodeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
