import Foundation
import JSONKit
import Ledger
import Reel

/// Runs a state-changing command and reports it: one line per outcome, or one JSON document
/// (`Schemas/cli/command-result.schema.json`). Outcomes about a title name it when the catalog
/// knows it (`added movie 550 Fight Club (1999)`).
enum CommandOutput {
    static func run(_ command: Command, global: GlobalOptions, photo: [UInt8]? = nil, titles: [MediaKey: TitleSummary] = [:]) throws {
        let handle = try global.handle()
        let service = try LedgerLocation.service(global)
        let report = try service.execute(command, for: handle, photo: photo)
        if !report.appended.isEmpty { Console.changed("the change was saved") }
        func label(_ outcome: Outcome) -> String? { outcome.mediaKey.flatMap { titles[$0]?.label } }
        func message(_ outcome: Outcome) -> String {
            guard let label = label(outcome), let key = outcome.mediaKey else { return outcome.message }
            // "added movie 550" → "added movie 550 Fight Club (1999)", wherever the key is named.
            return outcome.message.replacingOccurrences(of: key.description, with: "\(key) \(label)")
        }
        if global.json {
            let document: JSONValue = [
                "user": .string(handle.value), "stream": JSONForm.stream(report.stream),
                "changed": .bool(!report.appended.isEmpty),
                "outcomes": .array(report.outcomes.map { outcome in
                    JSONForm.outcome(outcome).merging(["message": .string(message(outcome)), "title": .init(label(outcome).map(JSONValue.string))])
                }),
                "appended": .array(report.appended.map(JSONForm.entry)),
            ]
            try printJSON(document)
            return
        }
        for outcome in report.outcomes {
            // The title in the message comes from TMDb: one terminal-safe line before it is wrapped.
            let text = Terminal.fit(TerminalText.field(message(outcome)))
            Console.line(outcome.changed ? Terminal.green(text) : Terminal.dim(text))
        }
    }
}
