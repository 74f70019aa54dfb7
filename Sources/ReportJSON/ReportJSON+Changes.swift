import Foundation
public import Reel

extension ReportJSON {
    /// What a change did (`command-result.schema.json`; the service's `Change`): each outcome with
    /// its message naming the title when the catalog knows it, the events appended, and the notes
    /// on ids saved without being checked. `replayed`: a retry of a request already recorded.
    public static func change(_ report: ChangeReport) -> JSONValue {
        let command = report.command
        return [
            "user": .string(command.handle.value), "stream": stream(command.stream), "changed": .bool(report.changed),
            "replayed": .bool(report.replayed),
            "outcomes": .array(command.outcomes.map { outcome in
                [
                    "kind": .string(outcome.kind), "changed": .bool(outcome.changed), "message": .string(report.message(outcome)),
                    "mediaType": .init(outcome.mediaKey.map { .string($0.mediaType.rawValue) }),
                    "id": .init(outcome.mediaKey.map { .integer($0.id) }), "title": string(report.label(outcome)),
                ]
            }),
            "appended": .array(command.appended.map { entry($0, title: $0.mediaKey.flatMap { report.titles[$0]?.label }) }),
            "notes": .array(report.notes.map { .string($0.description) }),
        ]
    }

    /// One event of an account's history (`history.schema.json#/$defs/entry`): its summary names
    /// the title when `title` is known.
    public static func entry(_ entry: HistoryEntry, title: String?) -> JSONValue {
        [
            "position": .integer(Int64(entry.position)), "streamVersion": .integer(Int64(entry.streamVersion)),
            "eventId": .string(entry.eventID.uuidString.lowercased()), "type": .string(entry.type),
            "schemaVersion": .integer(Int64(entry.schemaVersion)), "recordedAt": time(entry.recordedAt),
            "payload": JSONValue(entry.payload), "shredded": .bool(entry.isShredded),
            "summary": .string(entry.summary(title: title)), "title": string(title),
        ]
    }

    /// An account's history, now or as of a point (`history.schema.json`).
    public static func history(_ report: HistoryReport) -> JSONValue {
        [
            "user": .string(report.handle.value), "stream": stream(report.stream), "asOf": asOf(report.asOf),
            "deletedAt": time(report.deletedAt), "events": .array(report.entries.map { entry($0, title: report.title($0)) }),
        ]
    }
}
