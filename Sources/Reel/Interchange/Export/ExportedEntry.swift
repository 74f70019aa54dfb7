import JSONKit
import Ledger

/// The fields of one history element of a Reel export, as the checks of `ExportDocument` need
/// them: numbers, and strings as their UTF-8 bytes.
///
/// `read` takes them straight from the element's bytes when the element is exactly as
/// `AccountExport.historyEntry` writes it — members in its order, no spaces, no escapes in the
/// strings — which is every element of an export Reel made. Anything else is `nil`, and the
/// element is parsed as general JSON (`init(json:)`): the same fields, the same checks, the same
/// errors. Only the path to the fields differs, and what each path gives is identical.
struct ExportedEntry {
    /// The payload: its canonical bytes (read as they are, being canonical already), or parsed.
    enum Payload {
        case canonical(ArraySlice<UInt8>)
        case parsed(JSONValue)
    }

    var position: Int64?
    var streamVersion: Int64?
    var eventID: ArraySlice<UInt8>?
    var type: ArraySlice<UInt8>?
    var schemaVersion: Int64?
    var recordedAt: ArraySlice<UInt8>?
    /// `nil` when missing or not an object.
    var payload: Payload?
    var payloadSha256: ArraySlice<UInt8>?
    var previousHash: ArraySlice<UInt8>?
    var hash: ArraySlice<UInt8>?
    var envelope: ArraySlice<UInt8>?

    /// From a parsed element; `nil` when it is not an object.
    init?(json value: JSONValue) {
        guard case .object(let e) = value else { return nil }
        func text(_ name: String) -> ArraySlice<UInt8>? { e[name]?.stringValue.map { Array($0.utf8)[...] } }
        position = e["position"]?.integerValue
        streamVersion = e["streamVersion"]?.integerValue
        eventID = text("eventId")
        type = text("type")
        schemaVersion = e["schemaVersion"]?.integerValue
        recordedAt = text("recordedAt")
        if let payload = e["payload"], case .object = payload { self.payload = .parsed(payload) }
        payloadSha256 = text("payloadSha256")
        previousHash = text("previousHash")
        hash = text("hash")
        envelope = text("envelope")
    }

    private init() {}

    /// The fields of `bytes[range]` when it is exactly in the writer's form; `nil` otherwise.
    static func read(_ bytes: [UInt8], _ range: Range<Int>) -> ExportedEntry? {
        bytes.withUnsafeBufferPointer { read(bytes, $0, range) }
    }

    private static func read(_ bytes: [UInt8], _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> ExportedEntry? {
        var reader = Reader(bytes: buffer, at: range.lowerBound, end: range.upperBound)
        var entry = ExportedEntry()
        guard reader.literal(#"{"position":"#), let position = reader.integer(),
            reader.literal(#","streamVersion":"#), let streamVersion = reader.integer(),
            reader.literal(#","eventId":"#), let eventID = reader.string(),
            reader.literal(#","type":"#), let type = reader.string(),
            reader.literal(#","schemaVersion":"#), let schemaVersion = reader.integer(),
            reader.literal(#","recordedAt":"#), let recordedAt = reader.string(),
            reader.literal(#","payload":"#), let payload = reader.object(),
            reader.literal(#","payloadSha256":"#), let payloadSha256 = reader.string(),
            reader.literal(#","previousHash":"#), let previousHash = reader.string(),
            reader.literal(#","hash":"#), let hash = reader.string(),
            reader.literal(#","envelope":"#), let envelope = reader.string(),
            reader.literal("}"), reader.at == range.upperBound
        else { return nil }
        // The commonest payloads are canonical as written; any other is parsed (and must parse).
        let canonical = bytes[payload].withUnsafeBytes { CanonicalPayload.isCanonicalFavorite($0) }
        if canonical {
            entry.payload = .canonical(bytes[payload])
        } else {
            guard let value = try? JSONValue(parsing: bytes[payload]) else { return nil }
            entry.payload = .parsed(value)
        }
        entry.position = position
        entry.streamVersion = streamVersion
        entry.eventID = bytes[eventID]
        entry.type = bytes[type]
        entry.schemaVersion = schemaVersion
        entry.recordedAt = bytes[recordedAt]
        entry.payloadSha256 = bytes[payloadSha256]
        entry.previousHash = bytes[previousHash]
        entry.hash = bytes[hash]
        entry.envelope = bytes[envelope]
        return entry
    }

    /// A cursor over the element that only moves on an exact match.
    private struct Reader {
        /// The deepest a payload may nest: the parser's limit less the element's own level.
        static let payloadDepth = JSONValue.maximumDepth - 1

        let bytes: UnsafeBufferPointer<UInt8>
        var at: Int
        let end: Int

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard at + count <= end else { return false }
            let start = text.utf8Start
            for i in 0..<count where bytes[at + i] != start[i] { return false }
            at += count
            return true
        }

        /// A non-negative integer without a leading zero, short enough not to overflow.
        mutating func integer() -> Int64? {
            var i = at
            var value: Int64 = 0
            while i < end, i - at < 18, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                value = value * 10 + Int64(bytes[i] - 0x30)
                i += 1
            }
            guard i > at, i < end, !(bytes[at] == 0x30 && i - at > 1), bytes[i] < 0x30 || bytes[i] > 0x39 else { return nil }
            at = i
            return value
        }

        /// A string of printable ASCII without escapes: the range of its contents.
        mutating func string() -> Range<Int>? {
            guard at < end, bytes[at] == UInt8(ascii: "\"") else { return nil }
            var i = at + 1
            while i < end, bytes[i] != UInt8(ascii: "\"") {
                guard bytes[i] >= 0x20, bytes[i] < 0x7F, bytes[i] != UInt8(ascii: "\\") else { return nil }
                i += 1
            }
            guard i < end else { return nil }
            defer { at = i + 1 }
            return (at + 1)..<i
        }

        /// An object's extent, braces balanced outside strings (its contents are checked by
        /// whoever reads it). Nested no deeper than the general parser takes it inside an element
        /// (whose own object is one level of its limit).
        mutating func object() -> Range<Int>? {
            guard at < end, bytes[at] == UInt8(ascii: "{") else { return nil }
            var depth = 0
            var inString = false
            var i = at
            while i < end {
                let c = bytes[i]
                if inString {
                    if c == UInt8(ascii: "\\") { i += 1 } else if c == UInt8(ascii: "\"") { inString = false }
                } else if c == UInt8(ascii: "\"") {
                    inString = true
                } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    depth += 1
                    if depth > Self.payloadDepth { return nil }
                } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 {
                        defer { at = i + 1 }
                        return at..<(i + 1)
                    }
                }
                i += 1
            }
            return nil
        }
    }
}
