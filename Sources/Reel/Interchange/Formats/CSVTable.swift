/// A CSV file (RFC 4180) read whole: a header row naming the columns, then rows of exactly as
/// many fields, each remembering the 1-based line it starts on.
///
/// The bytes must be UTF-8 (a byte order mark is allowed and dropped); records end with CRLF, LF
/// or a lone CR; quoted fields may hold commas, line breaks and quotes written `""`. Empty lines
/// are skipped. Columns are found by name ignoring case, spaces and punctuation, so `Title Type`,
/// `title type` and `TitleType` are the same column.
public struct CSVTable: Sendable, Equatable {
    /// One row after the header.
    public struct Row: Sendable, Equatable {
        /// The 1-based line the row starts on (a quoted field may continue it on later lines).
        public let line: Int
        public let fields: [String]

        public init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }

        public subscript(column: Int) -> String { fields[column] }
    }

    /// The column names, as the header spells them.
    public let header: [String]
    /// The 1-based line of the header (1 unless empty lines come first).
    public let headerLine: Int
    public let rows: [Row]

    /// Reads a whole table; throws `InterchangeError` naming the line of the first problem: an
    /// empty file, bytes that are not UTF-8, a broken quoted field, or a row whose number of fields
    /// differs from the header's.
    public init(parsing bytes: [UInt8]) throws(InterchangeError) {
        var scanner = CSVScanner(bytes)
        if let bad = TextPosition.firstInvalidUTF8(in: bytes, scanner.textStart..<bytes.count) {
            let position = TextPosition(of: bad, in: bytes, from: scanner.textStart)
            throw .invalidUTF8(line: position.line, column: position.column)
        }
        guard let header = try scanner.next(), !Self.isBlank(header) else { throw .emptyFile }
        var rows: [Row] = []
        while let record = try scanner.next() {
            guard record.fields.count == header.fields.count else {
                throw .fieldCount(line: record.line, found: record.fields.count, expected: header.fields.count)
            }
            rows.append(Row(line: record.line, fields: record.fields))
        }
        self.header = header.fields
        self.headerLine = header.line
        self.rows = rows
    }

    /// The column names of the first record only, or `nil` when the bytes do not start with a
    /// UTF-8 CSV record (binary data, a broken quote, an empty file): cheap enough to sniff a file.
    public static func header(of bytes: [UInt8]) -> [String]? {
        var scanner = CSVScanner(bytes)
        guard let record = try? scanner.next(), !isBlank(record),
            TextPosition.firstInvalidUTF8(in: bytes, record.range) == nil
        else { return nil }
        return record.fields
    }

    /// The index of the first column called `name` (ignoring case, spaces and punctuation).
    public func column(_ name: String) -> Int? {
        Self.column(name, in: header)
    }

    /// The index of the first column called `name` in `header` (ignoring case, spaces and punctuation).
    public static func column(_ name: String, in header: [String]) -> Int? {
        let wanted = normalized(name)
        return header.firstIndex { normalized($0) == wanted }
    }

    /// The indices of `names`, in order; throws `missingColumns` naming every one the header lacks.
    /// `format` completes the message: “… (a Letterboxd export has them)”.
    public func columns(_ names: [String], requiredBy format: String) throws(InterchangeError) -> [Int] {
        let found = names.map(column)
        let missing = zip(names, found).filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else { throw .missingColumns(line: headerLine, missing: missing, format: format) }
        return found.map { $0! }
    }

    /// A column name reduced to lowercase letters and digits.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
    }

    /// A record of one empty or all-space field: a file of spaces is as good as empty.
    private static func isBlank(_ record: CSVScanner.Record) -> Bool {
        record.fields.count == 1 && record.fields[0].allSatisfy { $0 == " " || $0 == "\t" }
    }
}
