public import JSONKit

/// Rewrites one event type's payload from one schema version to the next.
///
/// Events are never rewritten on disk: a version 1 event stays version 1 in the log and is
/// upcast each time it is read, so readers only ever handle the current shape.
public struct Upcaster: Sendable {
    public let type: String
    /// The version this upcaster reads; it produces `fromVersion + 1`.
    public let fromVersion: UInt16
    public let upcast: @Sendable (JSONValue) throws -> JSONValue

    public init(type: String, fromVersion: UInt16, upcast: @escaping @Sendable (JSONValue) throws -> JSONValue) {
        self.type = type
        self.fromVersion = fromVersion
        self.upcast = upcast
    }
}
