import Foundation
import Ledger
import Reel

/// Runs a state-changing command and reports it: one line per outcome, or one JSON document
/// (`Schemas/cli/command-result.schema.json`).
enum CommandOutput {
    static func run(_ command: Command, global: GlobalOptions, photo: [UInt8]? = nil) throws {
        let handle = try global.handle()
        let service = try LedgerLocation.service(global)
        let report = try service.execute(command, for: handle, photo: photo)
        if global.json {
            let document: JSONValue = [
                "user": .string(handle.value), "stream": JSONForm.stream(report.stream),
                "changed": .bool(!report.appended.isEmpty), "outcomes": .array(report.outcomes.map(JSONForm.outcome)),
                "appended": .array(report.appended.map(JSONForm.entry)),
            ]
            try printJSON(document)
            return
        }
        for outcome in report.outcomes {
            print(outcome.changed ? Terminal.green(outcome.message) : Terminal.dim(outcome.message))
        }
    }
}
