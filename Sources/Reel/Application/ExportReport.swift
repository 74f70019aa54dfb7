import EventLog
import Ledger

/// An account's export, made and not yet written anywhere: the front end writes `document` where
/// its user asked (a file, standard output, an HTTP response).
public struct ExportReport: Sendable {
    public let handle: AccountHandle
    public let stream: StreamID
    public let format: ExportFormat
    public let document: [UInt8]
    /// Events in the export (the whole history).
    public let events: Int
    /// Titles saved.
    public let saved: Int
    /// Titles the document lists (for Letterboxd: the saved movies).
    public let listed: Int
    public let headPosition: UInt64
    /// What the reader should know (series Letterboxd cannot take).
    public let notices: [String]
}
