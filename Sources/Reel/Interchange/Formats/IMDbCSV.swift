import Ledger

/// IMDb's list and watchlist CSV exports: `Position,Const,Created,Modified,Description,Title,URL,
/// Title Type,IMDb Rating,…` (older exports spell some columns differently, such as `const`,
/// `Title type` or `Original Title`). Only `Const` (the `tt…` id) and `Title` are required.
///
/// `Title Type` gives the media type: movies, shorts, TV movies and videos (and the `Feature Film`,
/// `Short Film` and `Documentary` of older exports) are movies; series and mini series are series;
/// episodes and anything else are left without one (reported as unmatched), and so is every title
/// of a file without a `Title Type` column (an IMDb id alone does not say). `Created` is when the
/// title was added.
public enum IMDbCSV {
    public static func read(_ bytes: [UInt8]) throws(InterchangeError) -> [ImportedTitle] {
        let table = try CSVTable(parsing: bytes)
        let constColumn = table.column("Const")
        let titleColumn = table.column("Title") ?? table.column("Original Title")
        guard let constColumn, let titleColumn else {
            let missing = [constColumn == nil ? "Const" : nil, titleColumn == nil ? "Title" : nil].compactMap(\.self)
            throw .missingColumns(line: table.headerLine, missing: missing, format: "an IMDb list export")
        }
        let typeColumn = table.column("Title Type")
        let yearColumn = table.column("Year")
        let createdColumn = table.column("Created")
        var titles: [ImportedTitle] = []
        titles.reserveCapacity(table.rows.count)
        for row in table.rows {
            let const = FieldValue.text(row[constColumn]) ?? ""
            guard ImportedTitle.isIMDbID(const) else {
                throw .invalidField(
                    line: row.line, column: table.header[constColumn], value: const,
                    problem: const.isEmpty ? "is empty" : "is not an IMDb title id (tt followed by digits)")
            }
            let kind = typeColumn.flatMap { FieldValue.text(row[$0]) }
            let year = try yearColumn.flatMap { (c) throws(InterchangeError) in
                try FieldValue.year(row[c], line: row.line, column: table.header[c])
            }
            let addedAt = try createdColumn.flatMap { (c) throws(InterchangeError) in
                try FieldValue.date(row[c], line: row.line, column: table.header[c])
            }
            titles.append(
                ImportedTitle(
                    location: .line(row.line), mediaType: kind.flatMap(mediaType(ofTitleType:)), kind: kind,
                    imdbID: const, title: FieldValue.text(row[titleColumn]), year: year, addedAt: addedAt))
        }
        return titles
    }

    /// The media type of an IMDb title type, in either spelling (`TV Series` or `tvSeries`), or
    /// `nil` for episodes, games, podcasts and kinds not known here.
    public static func mediaType(ofTitleType titleType: String) -> MediaType? {
        switch CSVTable.normalized(titleType) {
        case "movie", "short", "tvmovie", "video", "featurefilm", "shortfilm", "documentary": .movie
        case "tvseries", "tvminiseries", "miniseries": .tv
        default: nil
        }
    }
}
