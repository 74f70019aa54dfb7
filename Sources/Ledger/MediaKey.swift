/// One TMDb title: its media type and its TMDb id (a positive integer).
public struct MediaKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let mediaType: MediaType
    public let id: Int64

    public init(_ mediaType: MediaType, _ id: Int64) throws(DomainError) {
        guard id > 0, id <= Self.maximumID else { throw .invalidTMDbID(String(id)) }
        self.mediaType = mediaType
        self.id = id
    }

    /// Parses an id as typed by a person: digits only, positive.
    public init(_ mediaType: MediaType, parsing text: String) throws(DomainError) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = Int64(text) else {
            throw .invalidTMDbID(text)
        }
        try self.init(mediaType, id)
    }

    /// TMDb ids are int32 in the API.
    public static let maximumID: Int64 = Int64(Int32.max)

    public var description: String { "\(mediaType.rawValue) \(id)" }

    /// One word per key (ids are below 2^31): saved lists hash a key for every favorite replayed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(bitPattern: id) << 1 | (mediaType == .tv ? 1 : 0))
    }

    public static func < (a: MediaKey, b: MediaKey) -> Bool { (a.mediaType, a.id) < (b.mediaType, b.id) }
}
