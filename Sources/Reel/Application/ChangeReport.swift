import Foundation
import Ledger

/// What a change did, with what a front end needs to say it: the command's report, the titles
/// the catalog knows (to name them: `added movie 550 Fight Club (1999)`), and notes on ids that
/// were saved without being checked.
public struct ChangeReport: Sendable {
    public let command: CommandReport
    public let titles: [MediaKey: TitleSummary]
    public let notes: [FavoriteNote]
    /// `true`: a retry of a request already recorded (same idempotency key); the report is the
    /// original's, and nothing was appended now.
    public let replayed: Bool

    init(command: CommandReport, titles: [MediaKey: TitleSummary], notes: [FavoriteNote]) {
        self.command = command
        self.titles = titles
        self.notes = notes
        replayed = command.replayed
    }

    public var changed: Bool { !command.appended.isEmpty }

    /// The title a front end names an outcome with, when the catalog knows it.
    public func label(_ outcome: Outcome) -> String? { outcome.mediaKey.flatMap { titles[$0]?.label } }

    /// The outcome's message with the title after the key, wherever the key is named.
    public func message(_ outcome: Outcome) -> String {
        guard let label = label(outcome), let key = outcome.mediaKey else { return outcome.message }
        return outcome.message.replacingOccurrences(of: key.description, with: "\(key) \(label)")
    }
}
