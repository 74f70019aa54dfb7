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
    /// The account left this shard for another (`reel store move`): the last event of its stream
    /// here, which closes it; `nil` once the stream's key is destroyed (its type is in the clear).
    case accountMovedOut(ShardMove?)
    /// The account arrived from another shard, its events laid on this shard's chain before this one.
    case accountMovedIn(ShardMove)

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
        case .accountMovedOut: "account-moved-out"
        case .accountMovedIn: "account-moved-in"
        }
    }

    /// The type of the event that closes an account's stream on a shard it moved away from.
    public static let accountMovedOutType = "account-moved-out"
    /// The type of the event that ends a move on the shard an account arrived at.
    public static let accountMovedInType = "account-moved-in"

    /// The type of the event that closes an account's stream for good (its key is destroyed).
    public static let accountDeletedType = "account-deleted"

    /// Every type this version of Reel writes, with the schema version it writes.
    public static let currentVersions: [String: UInt16] = [
        "account-opened": 1, "favorite-added": 1, "favorite-imported": 1, "favorite-removed": 1, "profile-name-changed": 1,
        "profile-photo-changed": 1, "profile-photo-removed": 1, "language-switched": 1, "account-deleted": 1,
        "account-moved-out": 1, "account-moved-in": 1,
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
        case .profilePhotoRemoved, .accountDeleted, .accountMovedOut(nil): [:]
        case .accountMovedOut(let move?):
            ["toShard": .string(move.shard), "events": .integer(Int64(move.events)), "digest": .string(move.digest)]
        case .accountMovedIn(let move):
            [
                "fromShard": .string(move.shard), "events": .integer(Int64(move.events)), "digest": .string(move.digest),
                "movedOutPosition": .integer(Int64(move.closedAt?.position ?? 0)), "movedOutHash": .string(move.closedAt?.hash ?? ""),
            ]
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
        case .accountMovedOut(let move?): "moved the account to shard \(move.shard) (\(move.events) events)"
        case .accountMovedOut(nil): "moved the account to another shard"
        case .accountMovedIn(let move):
            "moved the account here from shard \(move.shard) (\(move.events) events, closed there at position \(move.closedAt?.position ?? 0))"
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
        func count() throws -> UInt64 {
            guard let count = payload["events"]?.integerValue, count > 0 else { throw DecodeFailure("expected events (a positive count)") }
            return UInt64(count)
        }
        func digest() throws -> String {
            guard let digest = payload["digest"]?.stringValue, ShardMove.isDigest(digest) else { throw DecodeFailure("expected digest (64 lowercase hex digits)") }
            return digest
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
        case "account-moved-out":
            guard let shard = payload["toShard"]?.stringValue, ShardMove.isShardName(shard) else { throw DecodeFailure("expected toShard (a shard's name)") }
            return .accountMovedOut(ShardMove(shard: shard, events: try count(), digest: try digest()))
        case "account-moved-in":
            guard let shard = payload["fromShard"]?.stringValue, ShardMove.isShardName(shard) else { throw DecodeFailure("expected fromShard (a shard's name)") }
            guard let position = payload["movedOutPosition"]?.integerValue, position > 0,
                let hash = payload["movedOutHash"]?.stringValue, ShardMove.isDigest(hash)
            else { throw DecodeFailure("expected movedOutPosition and movedOutHash") }
            return .accountMovedIn(
                ShardMove(shard: shard, events: try count(), digest: try digest(), closedAt: .init(position: UInt64(position), hash: hash)))
        default: return nil
        }
    }
}

struct DecodeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
