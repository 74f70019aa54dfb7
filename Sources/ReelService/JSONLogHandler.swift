import Foundation
import Glibc
import Logging
import Reel
import Synchronization

/// A swift-log handler writing one JSON object per line to standard error: `time`, `level`,
/// `label`, `message`, and the metadata (the request id as `requestId`): numbers logged as numbers
/// (`"status":401`, `"durationMs":0.039`), everything else as strings. Lines are written whole,
/// one `write` each, so lines from many threads never interleave.
struct JSONLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    private let label: String

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: JSONValue] = [
            "time": .string(UTCTime.iso(Int64(Date().timeIntervalSince1970 * 1_000_000))),
            "level": .string(event.level.rawValue), "label": .string(label), "message": .string(event.message.description),
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            fields[key == "hb.request.id" ? "requestId" : key] = Self.json(value)
        }
        var line = JSONValue.object(fields).encoded()
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }

    /// A metadata value as JSON: an integer or a finite number logged as one
    /// (`.stringConvertible(401)`) is a JSON number; anything else its text.
    static func json(_ value: Logger.MetadataValue) -> JSONValue {
        if case .stringConvertible(let convertible) = value {
            switch convertible {
            case let number as Int: return .integer(Int64(number))
            case let number as Double where number.isFinite: return .double(number)
            default: break
            }
        }
        return .string(value.description)
    }
}
