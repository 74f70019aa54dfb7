import Ledger

/// Reads the values of CSV fields the import formats share (text, years, dates, TMDb and IMDb
/// ids), trimmed of surrounding spaces; an empty field is `nil`, a malformed one an
/// `InterchangeError.invalidField` naming the line and the column.
enum FieldValue {
    /// The text, trimmed; `nil` when empty.
    static func text(_ field: String) -> String? {
        let trimmed = trim(field)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A year: four digits, or four digits starting a range such as `2008–2013`.
    static func year(_ field: String, line: Int, column: String) throws(InterchangeError) -> Int? {
        guard let text = text(field) else { return nil }
        let digits = text.utf8.prefix { $0 >= 0x30 && $0 <= 0x39 }
        let rest = text.unicodeScalars.dropFirst(digits.count)
        guard digits.count == 4, rest.isEmpty || rest.first == "–" || rest.first == "-", let year = Int(String(text.prefix(4))),
            year >= 1000
        else { throw .invalidField(line: line, column: column, value: text, problem: "is not a year (four digits)") }
        return year
    }

    /// A date (`2024-01-02`, midnight UTC) or an ISO 8601 date-time, in microseconds since 1970.
    static func date(_ field: String, line: Int, column: String) throws(InterchangeError) -> Int64? {
        guard let text = text(field) else { return nil }
        guard let micros = InterchangeDate.parse(text) else {
            throw .invalidField(line: line, column: column, value: text, problem: "is not a date (YYYY-MM-DD)")
        }
        return micros
    }

    /// A TMDb id: digits only, positive, at most `MediaKey.maximumID`.
    static func tmdbID(_ field: String, line: Int, column: String) throws(InterchangeError) -> Int64? {
        guard let text = text(field) else { return nil }
        guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = Int64(text), id > 0, id <= MediaKey.maximumID else {
            throw .invalidField(line: line, column: column, value: text, problem: "is not a TMDb id (a positive number)")
        }
        return id
    }

    /// An IMDb title id: `tt` and digits.
    static func imdbID(_ field: String, line: Int, column: String) throws(InterchangeError) -> String? {
        guard let text = text(field) else { return nil }
        guard ImportedTitle.isIMDbID(text) else {
            throw .invalidField(line: line, column: column, value: text, problem: "is not an IMDb title id (tt followed by digits)")
        }
        return text
    }

    private static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
