public import Reel

extension ReportJSON {
    /// A title's details in the account's language (`show.schema.json`): TMDb's facts, the cast
    /// and crew, trailers, poster and backdrop (TMDb's paths and full URLs), whether it is saved,
    /// OMDb's facts when they were asked for, and similar titles when they were.
    public static func details(_ report: TitleDetailsReport) -> JSONValue {
        func list(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }
        return [
            "mediaType": .string(report.key.mediaType.rawValue), "id": .integer(report.key.id), "language": .string(report.language),
            "title": .string(report.title), "originalTitle": .init(report.originalTitle.map(JSONValue.string)),
            "date": .init(report.date.map { .string($0.description) }), "lastAirDate": .init(report.endDate.map { .string($0.description) }),
            "genres": list(report.genres), "overview": .init(report.overview.map(JSONValue.string)), "tagline": .init(report.tagline.map(JSONValue.string)),
            "voteAverage": .double(report.voteAverage), "voteCount": .integer(Int64(report.voteCount)), "popularity": .double(report.popularity),
            "runtime": .init(report.runtime.map { .integer(Int64($0)) }), "seasons": .init(report.seasons.map { .integer(Int64($0)) }),
            "episodes": .init(report.episodes.map { .integer(Int64($0)) }), "status": .init(report.status.map(JSONValue.string)),
            "originalLanguage": .init(report.originalLanguage.map(JSONValue.string)), "spokenLanguages": list(report.spokenLanguages),
            "companies": list(report.companies),
            "people": .array(report.people.map { ["role": .string($0.role), "names": list($0.names)] }),
            "trailers": .array(report.trailers.map { ["name": .string($0.name), "url": .string($0.url)] }),
            "posterURL": .init(report.posterURL.map(JSONValue.string)), "backdropURL": .init(report.backdropURL.map(JSONValue.string)),
            "posterPath": .init(report.posterPath.map(JSONValue.string)), "backdropPath": .init(report.backdropPath.map(JSONValue.string)),
            "cast": .array(report.cast.map { ["id": .integer(Int64($0.id)), "name": .string($0.name), "character": .init($0.character.map(JSONValue.string))] }),
            "saved": .bool(report.savedAt != nil), "savedAt": .init(report.savedAt.map { .string(UTCTime.iso($0)) }),
            "imdbID": .init(report.imdbID.map(JSONValue.string)), "omdbStatus": .string(report.omdbStatus), "omdb": .init(report.omdb.map(omdb)),
            "similar": .array(report.similar.map { s in
                [
                    "mediaType": .string(s.key.mediaType.rawValue), "id": .integer(s.key.id), "title": .string(s.title),
                    "year": .init(s.year.map { .integer(Int64($0)) }), "saved": .bool(s.savedAt != nil),
                    "posterPath": .init(s.posterPath.map(JSONValue.string)),
                ]
            }),
        ]
    }

    /// OMDb's facts for scripts: numbers as numbers, OMDb's texts as they came.
    static func omdb(_ omdb: OMDbFacts) -> JSONValue {
        func list(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }
        func int(_ n: Int?) -> JSONValue { .init(n.map { .integer(Int64($0)) }) }
        let awards: JSONValue = omdb.awards.map { a in
            [
                "text": .string(a.text), "topAward": .init(a.topAward.map(JSONValue.string)), "topWins": int(a.topWins),
                "topNominations": int(a.topNominations), "wins": int(a.wins), "nominations": int(a.nominations),
            ]
        } ?? .null
        return [
            "imdbID": .string(omdb.imdbID), "imdbRating": .init(omdb.imdbRating.map(JSONValue.double)), "imdbVotes": int(omdb.imdbVotes),
            "tomatometer": int(omdb.tomatometer), "metascore": int(omdb.metascore), "awards": awards, "boxOffice": int(omdb.boxOffice),
            "rated": .init(omdb.rated.map(JSONValue.string)), "directors": list(omdb.directors), "writers": list(omdb.writers),
            "actors": list(omdb.actors), "totalSeasons": int(omdb.totalSeasons), "stale": .bool(omdb.stale),
        ]
    }
}
