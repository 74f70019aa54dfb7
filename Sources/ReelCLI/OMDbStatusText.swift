import Foundation
import Reel
import ReportJSON

/// `reel omdb status` as text and as JSON (`Schemas/cli/omdb-status.schema.json`).
enum OMDbStatusText {
    static func json(_ status: OMDbStatusReport) -> JSONValue {
        func int(_ n: Int?) -> JSONValue { .init(n.map { .integer(Int64($0)) }) }
        let saved = status.saved
        var check: JSONValue = .null
        if let lookup = status.check {
            check = .string(OMDbFacts.status(of: lookup))
        }
        return [
            "source": .string(status.source), "keySource": .init(status.keySource.map(JSONValue.string)), "keyFile": .string(status.keyFile),
            "baseURL": .string(status.baseURL),
            "budget": status.limit == nil ? .null : [
                "used": int(status.used), "limit": int(status.limit), "bulkLimit": int(status.bulkLimit),
                "resetsAt": ReportJSON.time(status.resetsAt), "shared": .bool(status.shared),
            ],
            "saved": [
                "titles": .integer(Int64(saved.titles)), "detailsMissing": .integer(Int64(saved.detailsMissing)),
                "withoutIMDbID": .integer(Int64(saved.withoutIMDbID)), "answered": .integer(Int64(saved.answered)),
                "unknownToOMDb": .integer(Int64(saved.unknownToOMDb)), "stale": .integer(Int64(saved.stale)), "waiting": .integer(Int64(saved.waiting)),
            ],
            "check": check, "license": .string(AboutReport.omdbLicense),
        ]
    }

    static func render(_ status: OMDbStatusReport) {
        switch status.source {
        case "off":
            Console.line(Terminal.fit("OMDb: off (no key); to add critics' scores and awards: export OMDB_API_KEY=… or run 'reel omdb login' (writes \(status.keyFile), mode 0600)"))
        case "sample":
            Console.line(Terminal.fit("OMDb: the sample catalog's own facts (no TMDb credentials, no OMDb key)"))
        default:
            Console.line(Terminal.fit("OMDb: \(status.baseURL), with the OMDb API key (hidden) from \(status.keySource ?? "?")"))
        }
        if let used = status.used, let limit = status.limit, let bulk = status.bulkLimit, let resetsAt = status.resetsAt {
            let wait = max(0, resetsAt - Int64(Date().timeIntervalSince1970 * 1_000_000)) / 60_000_000
            Console.line(Terminal.fit(
                "today (UTC): \(grouped(used)) of \(grouped(limit)) requests used (filling lists stops at \(grouped(bulk))); "
                    + "the count starts again at midnight UTC, in \(wait / 60) h \(wait % 60) min"
                    + (status.shared ? "" : " (counted in this process only: the budget store cannot be used)")))
        }
        let saved = status.saved
        if saved.titles > 0 && status.source != "off" {
            var parts = ["\(grouped(saved.answered - saved.unknownToOMDb)) of \(grouped(saved.titles)) saved titles have OMDb's scores"]
            if saved.waiting > 0 { parts.append("\(grouped(saved.waiting)) wait for OMDb (asked when the list is shown, the most recently saved first, as the budget allows)") }
            if saved.stale > 0 { parts.append("\(grouped(saved.stale)) are older than a week") }
            if saved.unknownToOMDb > 0 { parts.append("\(grouped(saved.unknownToOMDb)) unknown to OMDb") }
            if saved.withoutIMDbID > 0 { parts.append("\(grouped(saved.withoutIMDbID)) without an IMDb id") }
            if saved.detailsMissing > 0 { parts.append("\(grouped(saved.detailsMissing)) without TMDb details yet") }
            Console.line(Terminal.fit("saved list: " + parts.joined(separator: "; ")))
        }
        switch status.check {
        case nil: break
        case .found?, .missing?: Console.line("OMDb accepts the key")
        case .unavailable(let failure)?: Console.error(failure.description)
        }
        Console.line(Terminal.dim(Terminal.fit(AboutReport.omdbLicense)))
    }

    private static func grouped(_ n: Int) -> String { TitleList.grouped(n) }
}
