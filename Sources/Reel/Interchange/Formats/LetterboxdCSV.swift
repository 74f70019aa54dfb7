import Ledger

/// Letterboxd's CSV files, both ways.
///
/// Reading takes either what Letterboxd exports (`watchlist.csv`, `watched.csv`, `ratings.csv`,
/// `diary.csv`, `likes/films.csv`: `Date,Name,Year,Letterboxd URI`, and more columns for ratings
/// and the diary) or what Letterboxd's importer accepts (any of `tmdbID`, `imdbID`, `Title`,
/// `Year`, `WatchedDate`, among others it ignores here), which is also what `write` produces.
/// Letterboxd lists films only, so every title read is a movie.
public enum LetterboxdCSV {
    /// A film to write for Letterboxd's importer.
    public struct Row: Sendable, Hashable {
        public let tmdbID: Int64
        public let title: String
        public let year: Int?

        public init(tmdbID: Int64, title: String, year: Int?) {
            self.tmdbID = tmdbID
            self.title = title
            self.year = year
        }
    }

    /// Reads an export or an import file (told apart by its header: an export has `Name`).
    public static func read(_ bytes: [UInt8]) throws(InterchangeError) -> [ImportedTitle] {
        let table = try CSVTable(parsing: bytes)
        let importColumns = ["tmdbID", "imdbID", "Title"].contains { table.column($0) != nil }
        if table.column("Name") == nil, importColumns { return try readImportFormat(table) }
        return try readExport(table)
    }

    /// `Date,Name,Year,Letterboxd URI,…`: `Name` and `Year` are required, `Date` is when the film
    /// was added (midnight UTC).
    private static func readExport(_ table: CSVTable) throws(InterchangeError) -> [ImportedTitle] {
        let required = try table.columns(["Name", "Year"], requiredBy: "a Letterboxd export")
        let (nameColumn, yearColumn) = (required[0], required[1])
        let dateColumn = table.column("Date")
        var titles: [ImportedTitle] = []
        titles.reserveCapacity(table.rows.count)
        for row in table.rows {
            guard let name = FieldValue.text(row[nameColumn]) else {
                throw .invalidField(line: row.line, column: table.header[nameColumn], value: "", problem: "is empty")
            }
            let year = try FieldValue.year(row[yearColumn], line: row.line, column: table.header[yearColumn])
            let addedAt = try dateColumn.flatMap { (c) throws(InterchangeError) in
                try FieldValue.date(row[c], line: row.line, column: table.header[c])
            }
            titles.append(ImportedTitle(location: .line(row.line), mediaType: .movie, title: name, year: year, addedAt: addedAt))
        }
        return titles
    }

    /// Letterboxd's import columns: every row needs a `tmdbID`, an `imdbID` or a `Title`.
    private static func readImportFormat(_ table: CSVTable) throws(InterchangeError) -> [ImportedTitle] {
        let tmdbColumn = table.column("tmdbID")
        let imdbColumn = table.column("imdbID")
        let titleColumn = table.column("Title")
        let yearColumn = table.column("Year")
        let dateColumn = table.column("WatchedDate")
        var titles: [ImportedTitle] = []
        titles.reserveCapacity(table.rows.count)
        for row in table.rows {
            let tmdbID = try tmdbColumn.flatMap { (c) throws(InterchangeError) in
                try FieldValue.tmdbID(row[c], line: row.line, column: table.header[c])
            }
            let imdbID = try imdbColumn.flatMap { (c) throws(InterchangeError) in
                try FieldValue.imdbID(row[c], line: row.line, column: table.header[c])
            }
            let title = titleColumn.flatMap { FieldValue.text(row[$0]) }.map(Self.withoutFormulaGuard)
            guard tmdbID != nil || imdbID != nil || title != nil else {
                throw .invalidRow(line: row.line, problem: "no tmdbID, imdbID or Title")
            }
            let year = try yearColumn.flatMap { (c) throws(InterchangeError) in
                try FieldValue.year(row[c], line: row.line, column: table.header[c])
            }
            let addedAt = try dateColumn.flatMap { (c) throws(InterchangeError) in
                try FieldValue.date(row[c], line: row.line, column: table.header[c])
            }
            titles.append(
                ImportedTitle(
                    location: .line(row.line), mediaType: .movie, tmdbID: tmdbID, imdbID: imdbID, title: title, year: year,
                    addedAt: addedAt))
        }
        return titles
    }

    /// The CSV Letterboxd's importer takes (`tmdbID,Title,Year`, LF line endings, fields quoted
    /// only when they hold a comma, a quote or a line break, or are guarded against formulas (see
    /// `appendField`); an unknown year is an empty field).
    /// No date column: Letterboxd reads `WatchedDate` as a diary entry, and a saved title is not a
    /// watched one. Give it movies only; Letterboxd has no series.
    public static func write(_ rows: [Row]) -> [UInt8] {
        var out = Array("tmdbID,Title,Year\n".utf8)
        out.reserveCapacity(out.count + rows.count * 32)
        for row in rows {
            out.append(contentsOf: String(row.tmdbID).utf8)
            out.append(UInt8(ascii: ","))
            appendField(row.title, to: &out)
            out.append(UInt8(ascii: ","))
            if let year = row.year { out.append(contentsOf: String(year).utf8) }
            out.append(0x0A)
        }
        return out
    }

    /// Appends `field`, quoted (and its quotes doubled) when it holds a comma, a quote or a line
    /// break, or starts or ends with a space.
    ///
    /// A field a spreadsheet would run as a formula (OWASP's CSV injection rule: it starts with
    /// `=`, `+`, `-`, `@`, a tab or a CR, such as a title `=HYPERLINK(…)` from TMDb) is written
    /// with a `'` in front and quoted, so a spreadsheet shows it as text. So that the guard can be
    /// told from a title's own `'`, a field whose leading run of `'` is followed by one of those
    /// characters gets one more `'`; reading takes exactly one off again (`withoutFormulaGuard`),
    /// so every title reads back as it was written.
    static func appendField(_ field: String, to out: inout [UInt8]) {
        var bytes = Array(field.utf8)
        let guarded = needsFormulaGuard(bytes)
        if guarded { bytes.insert(UInt8(ascii: "'"), at: 0) }
        let needsQuotes =
            guarded
            || bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ")
        guard needsQuotes else {
            out.append(contentsOf: bytes)
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The characters that make a spreadsheet cell a formula when they start it.
    private static let formulaStarts: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D]

    /// True when `bytes`, after any leading `'`, start with a formula character.
    static func needsFormulaGuard(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first(where: { $0 != UInt8(ascii: "'") }) else { return false }
        return formulaStarts.contains(first)
    }

    /// A field read back without the `'` `appendField` put in front of it.
    static func withoutFormulaGuard(_ text: String) -> String {
        guard text.utf8.first == UInt8(ascii: "'"), needsFormulaGuard(text.utf8.dropFirst()) else { return text }
        return String(text.unicodeScalars.dropFirst())
    }
}
