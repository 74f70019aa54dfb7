import Foundation
import Ledger

/// Writes one JSON document to stdout: sorted keys, so output is stable for scripts and tests.
/// Documents built as `JSONValue` (most of them) are written by `JSONValue.prettyPrinted()`, the
/// same text as `JSONEncoder` at a fraction of the cost; other `Encodable` values go through it.
func printJSON<T: Encodable>(_ value: T) throws {
    var data: Data
    if let json = value as? JSONValue {
        data = Data(json.prettyPrinted())
    } else if let members = value as? [String: JSONValue] {
        data = Data(JSONValue.object(members).prettyPrinted())
    } else if let items = value as? [JSONValue] {
        data = Data(JSONValue.array(items).prettyPrinted())
    } else {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        data = try encoder.encode(value)
    }
    data.append(0x0a)
    FileHandle.standardOutput.write(data)
}
