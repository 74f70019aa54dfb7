public import JSONKit

/// Reads stored events into domain events: parses the payload, runs it through the upcasters up to
/// the current schema version of its type, then decodes the current shape.
public struct EventDecoder: Sendable {
    /// Decodes a current-version payload of one type.
    public typealias Decode = @Sendable (JSONValue) throws -> DomainEvent

    private var current: [String: UInt16]
    private var upcasters: [String: [UInt16: Upcaster]] = [:]
    private var decoders: [String: Decode] = [:]
    /// Whether nothing was registered: every type is read as this Reel writes it, so the canonical
    /// payloads of `CanonicalPayload` may be read directly.
    private var isStandard: Bool

    /// The decoder for the events this version of Reel writes (every type at version 1 today).
    public static let standard = EventDecoder()

    public init() {
        let versions = DomainEvent.currentVersions
        current = versions
        isStandard = CanonicalPayload.types.allSatisfy { versions[$0] == CanonicalPayload.schemaVersion }
    }

    /// Declares that `type` is now at `version`, read by `decode`; older versions need upcasters.
    public mutating func register(type: String, currentVersion version: UInt16, decode: @escaping Decode) {
        current[type] = version
        decoders[type] = decode
        isStandard = false
    }

    public mutating func register(_ upcaster: Upcaster) {
        upcasters[upcaster.type, default: [:]][upcaster.fromVersion] = upcaster
        isStandard = false
    }

    /// `nil` for an event type this version of Reel does not know (it is skipped, not an error).
    public func decode(type: String, schemaVersion: UInt16, payload bytes: [UInt8]) throws(DomainError) -> DomainEvent? {
        try decodeUpcasting(type: type, schemaVersion: schemaVersion, payload: bytes)?.event
    }

    /// The same for an event seen in place (a replay): `type` and `payload` are its bytes. The
    /// commonest events, stored as this Reel writes them, are read without a JSON tree.
    public func decode(type: RawSpan, schemaVersion: UInt16, payload: RawSpan) throws(DomainError) -> DomainEvent? {
        try type.withUnsafeBytes { (type) throws(DomainError) in
            try payload.withUnsafeBytes { (payload) throws(DomainError) in try decode(typeBytes: type, schemaVersion: schemaVersion, payload: payload) }
        }
    }

    func decode(typeBytes: UnsafeRawBufferPointer, schemaVersion: UInt16, payload: UnsafeRawBufferPointer) throws(DomainError)
        -> DomainEvent?
    {
        if isStandard, schemaVersion == CanonicalPayload.schemaVersion, let event = CanonicalPayload.event(typeBytes: typeBytes, payload: payload) {
            return event
        }
        return try decode(type: String(decoding: typeBytes, as: UTF8.self), schemaVersion: schemaVersion, payload: Array(payload))
    }

    /// The event and its payload upcast to the current version of its type.
    public func decodeUpcasting(type: String, schemaVersion: UInt16, payload bytes: [UInt8]) throws(DomainError)
        -> (event: DomainEvent, payload: JSONValue)?
    {
        guard current[type] != nil else { return nil }
        let payload: JSONValue
        do {
            payload = try JSONValue(parsing: bytes)
        } catch {
            throw .undecodableEvent(type: type, version: schemaVersion, reason: "\(error)")
        }
        return try decodeUpcasting(type: type, schemaVersion: schemaVersion, value: payload)
    }

    /// The same, from a payload parsed already.
    public func decodeUpcasting(type: String, schemaVersion: UInt16, value: JSONValue) throws(DomainError)
        -> (event: DomainEvent, payload: JSONValue)?
    {
        guard let target = current[type] else { return nil }
        do {
            var payload = value
            var version = schemaVersion
            guard version <= target else {
                throw DecodeFailure("version \(version) is newer than this Reel reads (\(target)); upgrade Reel")
            }
            while version < target {
                guard let step = upcasters[type]?[version] else { throw DecodeFailure("no upcaster from version \(version)") }
                payload = try step.upcast(payload)
                version += 1
            }
            if let decode = decoders[type] { return (try decode(payload), payload) }
            guard let event = try DomainEvent.decodeCurrent(type: type, payload: payload) else { return nil }
            return (event, payload)
        } catch let error as DomainError {
            if case .undecodableEvent = error { throw error }
            throw .undecodableEvent(type: type, version: schemaVersion, reason: error.description)
        } catch {
            throw .undecodableEvent(type: type, version: schemaVersion, reason: "\(error)")
        }
    }
}
