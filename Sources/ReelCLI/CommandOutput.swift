import Presentation
import Reel
import ReportJSON

/// Renders what a change did: one line per outcome, or one JSON document
/// (`Schemas/cli/command-result.schema.json`). Outcomes about a title name it when the catalog
/// knows it (`added movie 550 Fight Club (1999)`); notes on unchecked ids go to stderr first.
enum CommandOutput {
    static func render(_ report: ChangeReport, json: Bool) throws {
        for note in report.notes { Terminal.notice(note.description) }
        if report.changed { Console.changed("the change was saved") }
        let command = report.command
        if json {
            try printJSON(ReportJSON.change(report))
            return
        }
        for outcome in command.outcomes {
            // The title in the message comes from TMDb: one terminal-safe line before it is wrapped.
            let text = Terminal.fit(TerminalText.field(report.message(outcome)))
            Console.line(outcome.changed ? Terminal.green(text) : Terminal.dim(text))
        }
    }
}
