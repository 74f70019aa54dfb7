import Reel
import Foundation

/// Writes one JSON document to stdout: sorted keys, so output is stable for scripts and tests.
/// Documents built as `JSONValue` (most of them) are written by `JSONValue.prettyPrinted()`, the
/// same text as `JSONEncoder` at a fraction of the cost; other `Encodable` values go through it.
/// The text is exact (JSON escaping already keeps control characters off a terminal), so it goes
/// to `Console.write`, not through the terminal-safe `Console.line`.
func printJSON<T: Encodable>(_ value: T) throws {
    var bytes: [UInt8]
    if let json = value as? JSONValue {
        bytes = json.prettyPrinted()
    } else if let members = value as? [String: JSONValue] {
        bytes = JSONValue.object(members).prettyPrinted()
    } else if let items = value as? [JSONValue] {
        bytes = JSONValue.array(items).prettyPrinted()
    } else {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        bytes = [UInt8](try encoder.encode(value))
    }
    bytes.append(0x0a)
    Console.write(bytes)
}
