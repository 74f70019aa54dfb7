public import Reel
public import Stores

extension ReportJSON {
    /// The audit of a ledger's hash chain (`Schemas/audit-verify.schema.json`): intact (`ok`), the
    /// events walked and the head, or the first damaged position and the rule it breaks.
    public static func verification(_ report: VerificationReport) -> JSONValue {
        [
            "ok": .bool(report.isIntact), "events": .integer(Int64(report.eventsChecked)),
            "headPosition": integer(report.head?.position), "headHash": string(report.head?.hash.hex),
            "headRecordedAt": time(report.head?.recordedAtMicroseconds),
            "problem": .init(report.problem.map { problem in
                ["position": .integer(Int64(problem.position)), "rule": .string(problem.rule.rawValue), "detail": .string(problem.detail)]
            }),
        ]
    }

    /// The audit of every shard of a shard map (`Schemas/audit-verify-shards.schema.json`): each
    /// shard's as `verification`, with its name, store and the streams on it the map places
    /// elsewhere, and the checkpoint of all the heads (against the one expected, when given).
    public static func shardVerification(_ report: ShardVerificationReport) -> JSONValue {
        [
            "ok": .bool(report.isIntact), "events": .integer(Int64(report.events)), "checkpoint": string(report.checkpoint),
            "expectedCheckpoint": string(report.expectedCheckpoint),
            "shards": .array(report.shards.map { shard in
                verification(shard.report).merging([
                    "name": .string(shard.name), "store": .string(shard.store), "ok": .bool(shard.isIntact),
                    "misplaced": .array(shard.misplaced.map(JSONValue.string)),
                ])
            }),
        ]
    }

    /// What rebuilding (or, with `check`, comparing) the projections found and did
    /// (`projections-rebuild.schema.json`): `ok` when nothing drifted.
    public static func rebuild(_ report: RebuildReport, check: Bool) -> JSONValue {
        [
            "ok": .bool(report.drift.isEmpty), "check": .bool(check), "swapped": .bool(report.swapped),
            "events": .integer(Int64(report.events)), "accounts": .integer(Int64(report.accounts)),
            "checkpoint": .integer(Int64(report.checkpoint)), "seconds": .double(report.seconds),
            "eventsPerSecond": .integer(Int64(report.eventsPerSecond)),
            "drift": .array(report.drift.map { ["kind": .string($0.kind.rawValue), "subject": .string($0.subject), "detail": .string($0.detail)] }),
        ]
    }

    /// What rebuilding the projections of every shard did (`projections-rebuild-shards.schema.json`):
    /// each shard's as `rebuild`, with its name and store, and the totals.
    public static func shardRebuild(_ reports: [ShardRebuildReport], check: Bool) -> JSONValue {
        [
            "ok": .bool(reports.allSatisfy { $0.report.drift.isEmpty }), "check": .bool(check), "swapped": .bool(!check),
            "events": .integer(Int64(reports.reduce(0) { $0 + $1.report.events })),
            "accounts": .integer(Int64(reports.reduce(0) { $0 + $1.report.accounts })),
            "shards": .array(reports.map { rebuild($0.report, check: check).merging(["name": .string($0.name), "store": .string($0.store)]) }),
        ]
    }
}
