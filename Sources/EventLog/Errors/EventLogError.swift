public import LMDB

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
    /// `keys/` is missing while the ledger holds events (or names its key store).
    case missingKeyStore(path: String, events: UInt64)
    /// `keys/` is not the key store of this ledger: its pair id differs, or it lacks it.
    case foreignKeyStore(path: String, reason: String)
    /// The stream has events but the key store holds no key for it, live or destroyed.
    case missingKey(StreamID)
    /// `ledger/` is missing or empty while `keys/` holds keys: a ledger would be started afresh
    /// beside keys whose events are gone.
    case missingLedger(path: String, keys: Int)
    /// A stream is marked for key destruction without an `account-deleted` event ending it on the
    /// chain: nothing is destroyed.
    case unauthorizedShredding(stream: StreamID, reason: String)

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
        case .missingKeyStore(let path, let events):
            "the key store \(path) is missing, but the ledger holds \(events) events whose payloads need it; "
                + "restore it from the backup made with this ledger (nothing was changed)"
        case .foreignKeyStore(let path, let reason):
            "the key store \(path) does not belong to this ledger: \(reason); restore the one made with it (nothing was changed)"
        case .missingKey(let stream):
            "the key store holds no key for stream \(stream), which has events: it is not this ledger's key store, "
                + "or it lost keys (nothing was changed)"
        case .missingLedger(let path, let keys):
            "the ledger \(path) is missing or empty, but the key store beside it holds keys of \(keys) streams; "
                + "restore the ledger from a backup (nothing was changed)"
        case .unauthorizedShredding(let stream, let reason):
            "closed-streams marks stream \(stream) for key destruction, but \(reason): refusing to destroy its key "
                + "(the ledger was tampered with; run 'reel audit verify')"
        }
    }
}

extension EventLogError {
    /// An error from below as the log reports it: LMDB's become `.storage`, keeping LMDB's code,
    /// and a value LMDB returned in a shape its type cannot have is unreadable ledger data.
    /// Anything else (the log's own errors, a caller's, a cipher's failure) passes as it was
    /// thrown, so no error loses its cause or its kind on the way up.
    package static func wrap(_ error: any Error) -> any Error {
        switch error {
        case let error as LMDBError: EventLogError.storage(error)
        case let error as LMDBDecodingError: EventLogError.storage(LMDBError(code: .invalid, function: "eventlog", message: "\(error)"))
        default: error
        }
    }
}

extension EventLogError {
    /// Whether this refuses one append and leaves nothing of it written (its checks come before
    /// any write): a wrong expected version, an event id stored already, a closed stream. Any
    /// other error of an append may leave part of it, and breaks the transaction.
    public var refusesOneAppend: Bool {
        switch self {
        case .wrongExpectedVersion, .duplicateEventID, .streamShredded: true
        default: false
        }
    }
}
