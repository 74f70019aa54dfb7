public import Reel

/// The catalog's vocabulary: its genres and the languages an account may choose.
extension ReportJSON {
    /// TMDb's genres in the account's language (`genres.schema.json`): `movie` and `tv`, each a
    /// list or null when not asked for.
    public static func genres(_ report: GenresReport) -> JSONValue {
        var document: [String: JSONValue] = ["language": .string(report.language), "movie": .null, "tv": .null]
        for (type, genres) in report.lists {
            document[type.rawValue] = .array(genres.map { ["id": .integer(Int64($0.id)), "name": .string($0.name)] })
        }
        return .object(document)
    }

    /// The languages an account may choose, and its own (`languages.schema.json`).
    public static func languages(_ report: LanguagesReport) -> JSONValue {
        [
            "current": .string(report.current.value), "sampleCatalog": .bool(report.sampleCatalog),
            "languages": .array(report.languages.map { ["code": .string($0.code), "name": .string($0.name), "inSampleCatalog": .bool($0.inSampleCatalog)] }),
            "regions": .array(report.regions.map(JSONValue.string)),
        ]
    }
}
