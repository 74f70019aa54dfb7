import JSONKit
import Ledger

extension TitleSummary {
    /// The title's catalog details as the export keeps them (`Schemas/export.schema.json`, `details`).
    var exportDetails: JSONValue {
        [
            "title": .string(title), "originalTitle": .init(originalTitle.map(JSONValue.string)),
            "date": .init(date.map { .string($0.description) }), "year": .init(year.map { .integer(Int64($0)) }),
            "genres": .array(genres.map { ["id": .integer(Int64($0.id)), "name": .string($0.name)] }),
            "voteAverage": .double(voteAverage), "voteCount": .integer(Int64(voteCount)),
            "posterPath": .init(posterPath.map(JSONValue.string)),
        ]
    }
}
