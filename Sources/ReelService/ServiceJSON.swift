import Foundation
import Reel
import Stores

/// The JSON forms the service answers with (each a schema in `Schemas/service/openapi.json`).
/// Every key is always present, `null` when there is no value; times are ISO 8601 in UTC.
enum ServiceJSON {
    static func time(_ micros: Int64?) -> JSONValue { micros.map { .string(UTCTime.iso($0)) } ?? .null }

    static func stream(_ stream: StreamID?) -> JSONValue { stream.map { .string($0.rawValue) } ?? .null }

    static func asOf(_ asOf: AsOf?) -> JSONValue {
        switch asOf {
        case nil: .null
        case .position(let p)?: ["kind": "position", "value": .integer(Int64(p))]
        case .streamVersion(let v)?: ["kind": "streamVersion", "value": .integer(Int64(v))]
        case .time(let t)?: ["kind": "time", "value": .string(UTCTime.iso(t))]
        }
    }

    /// A title as the catalog knows it, in the account's language.
    static func title(_ summary: TitleSummary) -> JSONValue {
        [
            "mediaType": .string(summary.key.mediaType.rawValue), "id": .integer(summary.key.id), "title": .string(summary.title),
            "originalTitle": .init(summary.originalTitle.map(JSONValue.string)), "year": .init(summary.year.map { .integer(Int64($0)) }),
            "date": .init(summary.date.map { .string($0.description) }), "genres": .array(summary.genres.map { .string($0.name) }),
            "rating": .double(summary.voteAverage), "votes": .integer(Int64(summary.voteCount)),
            "posterPath": .init(summary.posterPath.map(JSONValue.string)), "imdbId": .init(summary.imdbID.map(JSONValue.string)),
        ]
    }

    static func entry(_ entry: HistoryEntry, title: String? = nil) -> JSONValue {
        [
            "position": .integer(Int64(entry.position)), "streamVersion": .integer(Int64(entry.streamVersion)),
            "eventId": .string(entry.eventID.uuidString.lowercased()), "type": .string(entry.type),
            "schemaVersion": .integer(Int64(entry.schemaVersion)), "recordedAt": time(entry.recordedAt),
            "payload": JSONValue(entry.payload), "shredded": .bool(entry.isShredded),
            "summary": .string(entry.summary), "title": .init(title.map(JSONValue.string)),
        ]
    }

    static func change(_ report: ChangeReport) -> JSONValue {
        let command = report.command
        return [
            "user": .string(command.handle.value), "stream": stream(command.stream), "changed": .bool(report.changed),
            "replayed": .bool(report.replayed),
            "outcomes": .array(command.outcomes.map { outcome in
                [
                    "kind": .string(outcome.kind), "changed": .bool(outcome.changed), "message": .string(report.message(outcome)),
                    "mediaType": .init(outcome.mediaKey.map { .string($0.mediaType.rawValue) }),
                    "id": .init(outcome.mediaKey.map { .integer($0.id) }),
                ]
            }),
            "appended": .array(command.appended.map { entry($0) }),
            "notes": .array(report.notes.map { .string($0.description) }),
        ]
    }

    static func photo(_ photo: PhotoReference?) -> JSONValue {
        guard let photo else { return .null }
        return [
            "sha256": .string(photo.sha256), "contentType": .string(photo.contentType), "bytes": .integer(Int64(photo.bytes)),
            "width": .integer(Int64(photo.width)), "height": .integer(Int64(photo.height)),
        ]
    }

    static func settings(_ view: AccountView) -> JSONValue {
        let settings = view.state.settings
        return [
            "user": .string(view.handle.value), "stream": stream(view.stream), "asOf": asOf(view.asOf),
            "name": .init(settings.name.map { .string($0.value) }), "language": .string(settings.language.value),
            "languageName": .string(settings.language.languageName), "photo": photo(settings.photo),
        ]
    }

    static func saved(_ report: SavedListReport) -> JSONValue {
        [
            "user": .string(report.handle.value), "stream": stream(report.stream), "asOf": asOf(report.asOf),
            "language": .string(report.language), "total": .integer(Int64(report.total)), "count": .integer(Int64(report.items.count)),
            "detailsMissing": .integer(Int64(report.detailsMissing)), "notices": .array(report.notices.map(JSONValue.string)),
            "items": .array(report.items.map { item in
                [
                    "mediaType": .string(item.saved.key.mediaType.rawValue), "id": .integer(item.saved.key.id),
                    "addedAt": time(item.saved.addedAt), "position": .integer(Int64(item.saved.position)),
                    "details": .string(item.lookup.status), "title": .init(item.lookup.summary.map(title)),
                    "omdb": .init(item.omdb.flatMap(omdb)),
                ]
            }),
        ]
    }

    static func omdb(_ scores: OMDbScores) -> JSONValue? {
        guard scores.found else { return nil }
        func int(_ n: Int?) -> JSONValue { .init(n.map { .integer(Int64($0)) }) }
        return [
            "imdbId": .string(scores.imdbID), "imdbRating": .init(scores.imdbRating.map(JSONValue.double)), "imdbVotes": int(scores.imdbVotes),
            "metascore": int(scores.metascore), "tomatometer": int(scores.tomatometer),
        ]
    }

    static func history(_ report: HistoryReport) -> JSONValue {
        [
            "user": .string(report.handle.value), "stream": stream(report.stream), "asOf": asOf(report.asOf),
            "deletedAt": time(report.deletedAt), "events": .array(report.entries.map { entry($0, title: report.title($0)) }),
        ]
    }

    static func account(_ summary: AccountSummary) -> JSONValue {
        [
            "user": .init(summary.handle.map { .string($0.value) }), "stream": .string(summary.stream.rawValue),
            "status": .string(summary.status.rawValue), "events": .integer(Int64(summary.events)), "saved": .integer(Int64(summary.saved)),
            "openedAt": time(summary.openedAt), "deletedAt": time(summary.deletedAt),
        ]
    }

    static func verification(_ report: VerificationReport) -> JSONValue {
        [
            "intact": .bool(report.isIntact), "eventsChecked": .integer(Int64(report.eventsChecked)),
            "head": .init(report.head.map { head in
                ["position": .integer(Int64(head.position)), "recordedAt": time(head.recordedAtMicroseconds), "hash": .string(head.hash.hex)]
            }),
            "problem": .init(report.problem.map { problem in
                ["position": .integer(Int64(problem.position)), "rule": .string(problem.rule.rawValue), "detail": .string(problem.detail)]
            }),
        ]
    }

    static func rebuild(_ report: RebuildReport) -> JSONValue {
        [
            "events": .integer(Int64(report.events)), "accounts": .integer(Int64(report.accounts)),
            "checkpoint": .integer(Int64(report.checkpoint)), "swapped": .bool(report.swapped), "seconds": .double(report.seconds),
            "drift": .array(report.drift.map { ["kind": .string($0.kind.rawValue), "subject": .string($0.subject), "detail": .string($0.detail)] }),
        ]
    }

    /// The audit of every shard of a shard map: each shard's as `verification`, with its name,
    /// store and the streams on it the map places elsewhere, and the checkpoint of all the heads.
    static func shardVerification(_ report: ShardVerificationReport) -> JSONValue {
        [
            "intact": .bool(report.isIntact), "eventsChecked": .integer(Int64(report.events)),
            "checkpoint": .init(report.checkpoint.map(JSONValue.string)),
            "shards": .array(
                report.shards.map { shard in
                    named(verification(shard.report), shard.name, shard.store, [
                        "intact": .bool(shard.isIntact), "misplaced": .array(shard.misplaced.map(JSONValue.string)),
                    ])
                }),
        ]
    }

    /// What rebuilding the projections of every shard did: each shard's as `rebuild`, with its
    /// name and store, and the totals.
    static func shardRebuild(_ reports: [ShardRebuildReport], checkOnly: Bool) -> JSONValue {
        [
            "events": .integer(Int64(reports.reduce(0) { $0 + $1.report.events })),
            "accounts": .integer(Int64(reports.reduce(0) { $0 + $1.report.accounts })), "swapped": .bool(!checkOnly),
            "shards": .array(reports.map { named(rebuild($0.report), $0.name, $0.store, [:]) }),
        ]
    }

    /// `object` with a shard's `name` and `store`, and `more`.
    private static func named(_ object: JSONValue, _ name: String, _ store: String, _ more: [String: JSONValue]) -> JSONValue {
        guard case .object(var fields) = object else { return object }
        fields["name"] = .string(name)
        fields["store"] = .string(store)
        fields.merge(more) { _, new in new }
        return .object(fields)
    }

    static func deletion(_ report: DeletionReport) -> JSONValue {
        [
            "user": .string(report.handle.value), "stream": .string(report.stream.rawValue), "deletedAt": time(report.deletedAt),
            "position": .integer(Int64(report.position)), "events": .integer(Int64(report.events)),
        ]
    }

    static func imported(_ report: ImportReport) -> JSONValue {
        switch report {
        case .restored(let restore, let sourceHandle, let sourceStream):
            return [
                "kind": "restored", "user": .string(restore.handle.value), "stream": stream(restore.stream),
                "events": .integer(Int64(restore.events)), "saved": .integer(Int64(restore.saved)), "skipped": .integer(Int64(restore.skipped)),
                "sourceUser": .string(sourceHandle.value), "sourceStream": .string(sourceStream),
            ]
        case .list(let list):
            return [
                "kind": "list", "format": .string(list.format.name), "user": .string(list.handle.value), "stream": stream(list.stream),
                "rows": .integer(Int64(list.rows)), "matched": .integer(Int64(list.matched)), "added": .integer(Int64(list.added)),
                "alreadySaved": .integer(Int64(list.alreadySaved)), "repeated": .integer(Int64(list.repeated)),
                "unmatched": .array(list.unmatched.map { ["title": .init($0.title.title.map(JSONValue.string)), "at": .string($0.title.location.description), "reason": .string($0.reason)] }),
                "changed": .bool(list.changed),
            ]
        }
    }

    static func token(_ token: AccessToken) -> JSONValue {
        [
            "id": .string(token.id), "user": .string(token.handle.value), "createdAt": time(token.createdAt),
            "revokedAt": time(token.revokedAt),
        ]
    }
}
