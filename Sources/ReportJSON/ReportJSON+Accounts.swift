public import Reel

extension ReportJSON {
    public static func photo(_ photo: PhotoReference?) -> JSONValue {
        guard let photo else { return .null }
        return [
            "sha256": .string(photo.sha256), "contentType": .string(photo.contentType), "bytes": .integer(Int64(photo.bytes)),
            "width": .integer(Int64(photo.width)), "height": .integer(Int64(photo.height)),
        ]
    }

    /// Settings on their own: name, language and photo (in a restored account's report).
    public static func settings(_ settings: Settings) -> JSONValue {
        [
            "name": .init(settings.name.map { .string($0.value) }), "language": .string(settings.language.value),
            "languageName": .string(settings.language.languageName), "photo": photo(settings.photo),
        ]
    }

    /// An account's settings, now or as of a point (`settings.schema.json`).
    public static func settings(_ view: AccountView) -> JSONValue {
        settings(view.state.settings).merging([
            "user": .string(view.handle.value), "stream": stream(view.stream), "asOf": asOf(view.asOf),
        ])
    }

    /// One account of the ledger (`accounts.schema.json#/$defs/account`); a deleted account's
    /// handle is gone (`null`).
    public static func account(_ summary: AccountSummary) -> JSONValue {
        [
            "user": .init(summary.handle.map { .string($0.value) }), "stream": .string(summary.stream.rawValue),
            "status": .string(summary.status.rawValue), "events": .integer(Int64(summary.events)), "saved": .integer(Int64(summary.saved)),
            "openedAt": time(summary.openedAt), "deletedAt": time(summary.deletedAt),
        ]
    }

    /// Every account of the ledger (`accounts.schema.json`).
    public static func accounts(_ summaries: [AccountSummary]) -> JSONValue { ["accounts": .array(summaries.map(account))] }

    /// An account deleted for good (`account-delete.schema.json`): its key is destroyed; on
    /// PostgreSQL the key's bytes may wait for a purge (`keyPurged` false, and why).
    public static func deletion(_ report: DeletionReport) -> JSONValue {
        [
            "user": .string(report.handle.value), "stream": .string(report.stream.rawValue), "deletedAt": time(report.deletedAt),
            "position": .integer(Int64(report.position)), "events": .integer(Int64(report.events)), "keyDestroyed": true,
            "keyPurged": .bool(report.keyPurged), "purgeProblem": string(report.purgeProblem), "seconds": .double(report.seconds),
            "receipt": string(report.receipt), "receiptProblem": string(report.receiptProblem), "receiptFile": .null,
        ]
    }

    /// An account token, never its secret (`token-list.schema.json#/$defs/token`).
    public static func token(_ token: AccessToken) -> JSONValue {
        [
            "id": .string(token.id), "kind": .string(token.kind.rawValue), "user": .string(token.handle.value), "createdAt": time(token.createdAt),
            "expiresAt": time(token.expiresAt), "revokedAt": time(token.revokedAt),
        ]
    }

    /// Account tokens, never their secrets (`token-list.schema.json`).
    public static func tokens(_ tokens: [AccessToken]) -> JSONValue { ["tokens": .array(tokens.map(token))] }

    /// What an import did, or would do with `dryRun` (`account-import.schema.json`): a Reel export
    /// restored (`kind` restored), or another app's list matched and saved (`kind` list).
    public static func imported(_ report: ImportReport, dryRun: Bool) -> JSONValue {
        switch report {
        case .restored(let restore, let sourceHandle, let sourceStream):
            return [
                "kind": "restored", "format": "reel", "dryRun": .bool(dryRun), "user": .string(restore.handle.value),
                "stream": stream(restore.stream), "sourceUser": .string(sourceHandle.value), "sourceStream": .string(sourceStream),
                "events": .integer(Int64(restore.events)), "saved": .integer(Int64(restore.saved)), "skipped": .integer(Int64(restore.skipped)),
                "settings": settings(restore.state.settings),
            ]
        case .list(let list):
            return [
                "kind": "list", "format": .string(list.format.name), "dryRun": .bool(dryRun), "user": .string(list.handle.value),
                "stream": stream(list.stream), "rows": .integer(Int64(list.rows)), "matched": .integer(Int64(list.matched)),
                "added": .integer(Int64(list.added)), "alreadySaved": .integer(Int64(list.alreadySaved)),
                "repeated": .integer(Int64(list.repeated)), "changed": .bool(list.changed),
                "unmatched": .array(list.unmatched.map { unmatched in
                    ["location": .string(unmatched.title.location.description), "title": .string(unmatched.title.label), "reason": .string(unmatched.reason)]
                }),
            ]
        }
    }
}
