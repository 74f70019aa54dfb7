import LMDB

/// What can go wrong with the log, in words a caller can act on.
public enum EventLogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream was not at the version the caller expected.
    case wrongExpectedVersion(stream: StreamID, expected: ExpectedVersion, actual: UInt64)
    /// An event id in the request is stored already, but not as this very request (another stream,
    /// or only some of the request's ids).
    case duplicateEventID(id: String, position: UInt64)
    case invalidStreamID(String)
    case invalidEventType(String)
    case payloadTooLarge(size: Int, limit: Int)
    /// The stream's key was destroyed: the stream is closed for good.
    case streamShredded(StreamID)
    /// The directory holds something that is not a Reel ledger of a format this version reads.
    case unsupportedFormat(path: String, found: String)
    /// A stored envelope could not be read.
    case corruptEnvelope(position: UInt64, reason: String)
    /// The log breaks a rule of `Schemas/ledger-layout.md` ("A ledger is intact when") where a
    /// read or a replay found it: what `reel audit verify` would report there.
    case brokenChain(VerificationProblem)
    /// A sealed blob kept beside the log does not authenticate under its stream's key.
    case corruptBlob(stream: StreamID, context: String)
    /// The storage underneath failed.
    case storage(LMDBError)

    public var description: String {
        switch self {
        case .wrongExpectedVersion(let stream, let expected, let actual):
            "stream \(stream) was expected at \(expected) but is at version \(actual)"
        case .duplicateEventID(let id, let position):
            "event id \(id) is already stored at position \(position)"
        case .invalidStreamID(let id):
            "invalid stream id \"\(id)\": it must be 1 to 255 bytes of UTF-8 without NUL"
        case .invalidEventType(let type):
            "invalid event type \"\(type)\": it must be 1 to 255 bytes of UTF-8"
        case .payloadTooLarge(let size, let limit):
            "payload of \(size) bytes is larger than the limit of \(limit) bytes"
        case .streamShredded(let stream):
            "stream \(stream) was deleted for good (its key is destroyed); it accepts no more events"
        case .unsupportedFormat(let path, let found):
            "\(path) is not a ledger this version of Reel can read (format \(found))"
        case .corruptEnvelope(let position, let reason):
            "the envelope at position \(position) is unreadable: \(reason)"
        case .brokenChain(let problem):
            problem.position == 0
                ? "the ledger does not verify: \(problem.rule.rawValue): \(problem.detail)"
                : "the ledger does not verify at position \(problem.position): \(problem.rule.rawValue): \(problem.detail)"
        case .corruptBlob(let stream, let context):
            "the sealed \(context) of stream \(stream) does not authenticate: it was altered or damaged"
        case .storage(let error):
            "storage failed: \(error)"
        }
    }
}

extension EventLogError {
    /// Wraps anything thrown below into an `EventLogError`, keeping LMDB's code.
    static func wrap(_ error: any Error) -> EventLogError {
        if let error = error as? EventLogError { return error }
        if let error = error as? LMDBError { return .storage(error) }
        return .storage(LMDBError(code: .invalid, function: "eventlog", message: "\(error)"))
    }
}
