import EventLog
public import Foundation
import JSONKit
import Ledger

/// One event of an account's history, as `reel history` shows it.
public struct HistoryEntry: Sendable, Equatable {
    public let position: UInt64
    public let streamVersion: UInt64
    public let eventID: UUID
    public let type: String
    /// The schema version the event was written with (its payload is shown upcast to the current one).
    public let schemaVersion: UInt16
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let recordedAt: Int64
    /// The decoded payload; `nil` when the account's key is destroyed (shredded).
    public let payload: JSONValue?
    /// The domain event, when this Reel knows the type and the payload is readable.
    public let event: DomainEvent?

    public var isShredded: Bool { payload == nil }

    /// What happened, in words.
    public var summary: String {
        if let event { return event.summary }
        if isShredded { return "\(type) (shredded: the account's key is destroyed)" }
        return "\(type) (an event type this version of Reel does not know)"
    }

    init(_ recorded: RecordedEvent, decoded: (event: DomainEvent, payload: JSONValue)?) {
        self.init(recorded, event: decoded?.event, payload: decoded?.payload)
    }

    init(_ recorded: RecordedEvent, event: DomainEvent?, payload upcast: JSONValue? = nil) {
        position = recorded.position
        streamVersion = recorded.streamVersion
        eventID = recorded.eventID
        type = recorded.type
        schemaVersion = recorded.schemaVersion
        recordedAt = recorded.envelope.firstRecordedAtMicroseconds
        self.event = event
        if let upcast {
            payload = upcast
        } else if let event {
            payload = event.payload
        } else if let bytes = recorded.payload {
            payload = (try? JSONValue(parsing: bytes)) ?? .string(String(decoding: bytes, as: UTF8.self))
        } else {
            payload = nil
        }
    }
}

extension HistoryEntry {
    /// The title a favorite event is about.
    public var mediaKey: MediaKey? {
        switch event {
        case .favoriteAdded(let key)?, .favoriteRemoved(let key)?, .favoriteImported(let key, _, _)?: key
        default: nil
        }
    }

    /// `summary`, with the title named after its key: `added movie 550 Fight Club (1999)`.
    public func summary(title: String?) -> String {
        guard let title, let key = mediaKey else { return summary }
        return summary.replacingOccurrences(of: key.description, with: "\(key) \(title)")
    }
}
