public import Reel

/// The one JSON form of each report, that `reel --json` prints and `reel serve` answers with: the
/// same report has the same shape in both (`Schemas/cli/`, and the service's `openapi.json`,
/// whose shared components `Tools/sync_report_schemas.py` copies from those files). Every key is
/// always present, `null` when there is no value, so scripts can rely on the shape; times are
/// RFC 3339 in UTC with microseconds.
///
/// Forms only: no terminal text, no HTTP. A face adds nothing to a report's form; what a
/// request asked that a report does not hold (a rebuild's `check`, an import's `dryRun`, the
/// saved list's query) is a parameter here, so both faces pass it the same way.
public enum ReportJSON {
    public static func time(_ micros: Int64?) -> JSONValue { micros.map { .string(UTCTime.iso($0)) } ?? .null }

    /// An account's stream id, `null` for an account that has made no change yet.
    public static func stream(_ stream: StreamID?) -> JSONValue { stream.map { .string($0.rawValue) } ?? .null }

    public static func asOf(_ asOf: AsOf?) -> JSONValue {
        switch asOf {
        case nil: .null
        case .position(let p)?: ["kind": "position", "value": .integer(Int64(p))]
        case .streamVersion(let v)?: ["kind": "streamVersion", "value": .integer(Int64(v))]
        case .time(let t)?: ["kind": "time", "value": .string(UTCTime.iso(t))]
        }
    }

    static func string(_ value: String?) -> JSONValue { .init(value.map(JSONValue.string)) }

    static func integer(_ value: (some BinaryInteger)?) -> JSONValue { .init(value.map { .integer(Int64($0)) }) }
}
