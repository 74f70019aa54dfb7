import EventLog
import Ledger

/// What an import did, or would do in a dry run.
public enum ImportReport: Sendable {
    /// A Reel export restored as a new account.
    case restored(RestoreReport, sourceHandle: AccountHandle, sourceStream: String)
    /// Another app's list saved into an account.
    case list(ListImportReport)
}

/// Another app's list, matched to TMDb titles and saved into an account.
public struct ListImportReport: Sendable {
    public struct Unmatched: Sendable {
        public let title: ImportedTitle
        public let reason: String
    }

    public let format: InterchangeFormat
    public let handle: AccountHandle
    /// The account's stream; `nil` for a dry run or when nothing was written.
    public let stream: StreamID?
    public let rows: Int
    public let matched: Int
    public let added: Int
    public let alreadySaved: Int
    /// Matched rows naming a title an earlier row of the file named (a diary lists a film each
    /// time it was watched): saved once. `added + alreadySaved + repeated + unmatched.count == rows`.
    public let repeated: Int
    /// Rows that could not be matched, never dropped silently.
    public let unmatched: [Unmatched]
    /// Whether anything was written.
    public let changed: Bool
}
