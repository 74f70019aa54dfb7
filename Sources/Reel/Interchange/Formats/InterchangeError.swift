/// Why a file from another app (or a Reel export) cannot be read, and where: every description is
/// one line a person can act on, naming the 1-based line (and column) of a CSV or JSON file, or the
/// entry of a JSON list.
public enum InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file has no bytes, or only a byte order mark, spaces and line breaks.
    case emptyFile
    /// A byte that is not UTF-8 text, at this line and column (columns count characters).
    case invalidUTF8(line: Int, column: Int)
    /// A quoted field that never ends; the line and column are where its quote opened.
    case unterminatedQuote(line: Int, column: Int)
    /// A `"` inside a field that does not start with one (such a field must be quoted whole).
    case quoteInUnquotedField(line: Int, column: Int)
    /// Something other than a comma or a line break right after a quoted field's closing quote.
    case textAfterClosingQuote(line: Int, column: Int)
    /// A row with more or fewer fields than the header names.
    case fieldCount(line: Int, found: Int, expected: Int)
    /// The header lacks columns the format needs; `format` names the format (“a Letterboxd export”).
    case missingColumns(line: Int, missing: [String], format: String)
    /// A field whose value is not what its column holds; `problem` is a predicate such as
    /// “is not a year (four digits)”. The value is omitted from the message when it is empty.
    case invalidField(line: Int, column: String, value: String, problem: String)
    /// A row that says nothing usable, for example neither a title nor an id.
    case invalidRow(line: Int, problem: String)
    /// The text is not JSON; the line and column are where the parser stopped.
    case invalidJSON(line: Int, column: Int, reason: String)
    /// The JSON document is not the kind of list the format is (for example an object instead of an array).
    case notAList(format: String, found: String)
    /// One entry of a JSON list is not what the format's entries are; `position` is 1-based.
    case invalidEntry(position: Int, problem: String)

    public var description: String {
        switch self {
        case .emptyFile:
            "the file is empty"
        case .invalidUTF8(let line, let column):
            "line \(line), column \(column): not UTF-8 text (save the file as UTF-8)"
        case .unterminatedQuote(let line, let column):
            "line \(line), column \(column): unterminated quoted field (opened here)"
        case .quoteInUnquotedField(let line, let column):
            "line \(line), column \(column): a quote in the middle of an unquoted field (quote the whole field and double the quote)"
        case .textAfterClosingQuote(let line, let column):
            "line \(line), column \(column): text after a quoted field's closing quote (a quote inside a quoted field is written \"\")"
        case .fieldCount(let line, let found, let expected):
            "line \(line): \(found) \(found == 1 ? "field" : "fields"), but the header has \(expected)"
        case .missingColumns(let line, let missing, let format):
            missing.count == 1
                ? "line \(line): the header has no \(missing[0]) column (\(format) has it)"
                : "line \(line): the header has no \(Self.list(missing)) columns (\(format) has them)"
        case .invalidField(let line, let column, let value, let problem):
            value.isEmpty
                ? "line \(line): \(column) \(problem)" : "line \(line): \(column) \(Self.quoted(value)) \(problem)"
        case .invalidRow(let line, let problem):
            "line \(line): \(problem)"
        case .invalidJSON(let line, let column, let reason):
            "line \(line), column \(column): invalid JSON: \(reason)"
        case .notAList(let format, let found):
            "not \(format): the file holds \(found), not a JSON array of entries"
        case .invalidEntry(let position, let problem):
            "entry \(position) (index \(position - 1)): \(problem)"
        }
    }

    /// “A”, “A and B”, “A, B and C”.
    private static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// A value as it is shown in a one-line message: quoted, control characters escaped, cut after 60 characters.
    static func quoted(_ value: String) -> String {
        var shown = ""
        var count = 0
        for scalar in value.unicodeScalars {
            if count == 60 {
                shown += "…"
                break
            }
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: shown += "\\u{\(String(scalar.value, radix: 16))}"
            default: shown.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return "'\(shown)'"
    }
}
