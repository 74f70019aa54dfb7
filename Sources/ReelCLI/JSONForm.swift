import Foundation
import Reel

/// The JSON shapes of `--json` output (each documented by a schema in `Schemas/cli/`). Every key
/// is always present, `null` when there is no value, so scripts can rely on the shape.
enum JSONForm {
    static func time(_ micros: Int64?) -> JSONValue {
        micros.map { .string(Timestamp.iso($0)) } ?? .null
    }

    static func asOf(_ asOf: AsOf?) -> JSONValue {
        switch asOf {
        case nil: .null
        case .position(let p)?: ["kind": "position", "value": .integer(Int64(p))]
        case .streamVersion(let v)?: ["kind": "streamVersion", "value": .integer(Int64(v))]
        case .time(let t)?: ["kind": "time", "value": .string(Timestamp.iso(t))]
        }
    }

    static func entry(_ e: HistoryEntry) -> JSONValue {
        [
            "position": .integer(Int64(e.position)), "streamVersion": .integer(Int64(e.streamVersion)),
            "eventId": .string(e.eventID.uuidString.lowercased()), "type": .string(e.type),
            "schemaVersion": .integer(Int64(e.schemaVersion)), "recordedAt": time(e.recordedAt),
            "payload": JSONValue(e.payload), "summary": .string(e.summary), "shredded": .bool(e.isShredded),
        ]
    }

    static func photo(_ p: PhotoReference?) -> JSONValue {
        guard let p else { return .null }
        return [
            "sha256": .string(p.sha256), "contentType": .string(p.contentType), "bytes": .integer(Int64(p.bytes)),
            "width": .integer(Int64(p.width)), "height": .integer(Int64(p.height)),
        ]
    }

    static func outcome(_ o: Outcome) -> JSONValue {
        [
            "kind": .string(o.kind), "changed": .bool(o.changed), "message": .string(o.message),
            "mediaType": o.mediaKey.map { .string($0.mediaType.rawValue) } ?? .null,
            "id": o.mediaKey.map { .integer($0.id) } ?? .null,
        ]
    }

    static func settings(_ s: Settings) -> JSONValue {
        [
            "name": s.name.map { .string($0.value) } ?? .null, "language": .string(s.language.value),
            "languageName": .string(s.language.languageName), "photo": photo(s.photo),
        ]
    }

    /// An account's stream id, `null` for an account that has made no change yet.
    static func stream(_ s: StreamID?) -> JSONValue { s.map { .string($0.rawValue) } ?? .null }
}
