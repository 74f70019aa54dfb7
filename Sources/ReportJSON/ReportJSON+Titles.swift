public import Reel

extension ReportJSON {
    /// A movie or series as a list shows it (`title-list.schema.json#/$defs/title`): its catalog
    /// details in the account's language, `details` saying whether they are known (and `problem`
    /// why not, when fetching failed), and whether and when the account saved it.
    public static func title(_ key: MediaKey, _ lookup: TitleLookup, savedAt: Int64?) -> JSONValue {
        let summary = lookup.summary
        var problem: JSONValue = .null
        if case .failed(let reason) = lookup { problem = .string(reason) }
        return [
            "mediaType": .string(key.mediaType.rawValue), "id": .integer(key.id), "details": .string(lookup.status),
            "title": string(summary?.title), "originalTitle": string(summary?.originalTitle),
            "date": .init(summary?.date.map { .string($0.description) }), "year": integer(summary?.year),
            "genres": .init(summary.map { .array($0.genres.map(genre)) }),
            "voteAverage": .init(summary.map { .double($0.voteAverage) }), "voteCount": integer(summary?.voteCount),
            "popularity": .init(summary.map { .double($0.popularity) }), "posterPath": string(summary?.posterPath),
            "imdbID": string(summary?.imdbID), "saved": .bool(savedAt != nil), "savedAt": time(savedAt), "problem": problem,
        ]
    }

    static func genre(_ genre: TitleListReport.Genre) -> JSONValue { ["id": .integer(Int64(genre.id)), "name": .string(genre.name)] }

    static func row(_ row: TitleListReport.Row) -> JSONValue { title(row.summary.key, .known(row.summary), savedAt: row.savedAt) }

    /// A browse list, as asked (`title-list.schema.json`): discover (with its order) or TMDb's
    /// popular or top-rated list, the pages fetched and TMDb's totals.
    public static func titleList(_ report: TitleListReport) -> JSONValue {
        let query = report.query
        let discover = query.list == .discover
        return [
            "mediaType": .string(query.mediaType.rawValue), "list": .string(query.list.rawValue), "language": .string(report.language),
            "sort": discover ? .string(query.order.rawValue) : .null, "descending": discover ? .bool(query.descending) : .null,
            "genres": .array(report.genres.map(genre)), "anyGenre": .bool(query.anyGenre), "year": integer(query.year),
            "person": .init(report.person.map { ["id": .integer(Int64($0.id)), "name": .string($0.name)] }),
            "page": .integer(Int64(query.page)), "pages": .integer(Int64(report.paging.pagesFetched)),
            "totalPages": .integer(Int64(report.paging.totalPages)), "totalResults": .integer(Int64(report.paging.totalResults)),
            "count": .integer(Int64(report.rows.count)), "results": .array(report.rows.map(row)),
        ]
    }

    /// What a search found (`search.schema.json`): titles as `title`, and people.
    public static func search(_ report: SearchReport) -> JSONValue {
        let query = report.query
        return [
            "query": .string(query.text), "type": .string(query.kind.rawValue), "language": .string(report.language),
            "year": integer(query.year), "page": .integer(Int64(query.page)),
            "pages": .integer(Int64(report.paging.pagesFetched)), "totalPages": .integer(Int64(report.paging.totalPages)),
            "totalResults": .integer(Int64(report.paging.totalResults)), "count": .integer(Int64(report.results.count)),
            "results": .array(report.results.map { found in
                switch found {
                case .title(let found): row(found)
                case .person(let person): self.person(person)
                }
            }),
        ]
    }

    /// A person a search found, with the titles TMDb says they are known for.
    public static func person(_ person: SearchReport.Person) -> JSONValue {
        [
            "mediaType": "person", "id": .integer(Int64(person.id)), "name": .string(person.name),
            "knownForDepartment": string(person.knownForDepartment), "popularity": .double(person.popularity),
            "profilePath": string(person.profilePath),
            "knownFor": .array(person.knownFor.map { media in
                ["mediaType": .string(media.isMovie ? "movie" : "tv"), "id": .integer(Int64(media.id)), "title": .string(media.title)]
            }),
        ]
    }

    /// The saved list, as `query` asked for it (`saved.schema.json`): each title as `title`, with
    /// when it was added, its place in the list and its OMDb scores; with `page`, only the items
    /// at those places (a page of the service's answer).
    public static func saved(_ report: SavedListReport, query: SavedListQuery, page: Range<Int>? = nil) -> JSONValue {
        let items = page.map { report.items[$0.clamped(to: report.items.indices)] } ?? report.items[...]
        return [
            "user": .string(report.handle.value), "stream": stream(report.stream), "asOf": asOf(report.asOf),
            "language": .string(report.language), "sort": .string(query.order.rawValue), "descending": .bool(query.descending),
            "type": .init(query.mediaType.map { .string($0.rawValue) }), "search": string(query.search),
            "genres": .array(query.genres.map(JSONValue.string)), "anyGenre": .bool(query.anyGenre),
            "total": .integer(Int64(report.total)), "count": .integer(Int64(items.count)),
            "detailsMissing": .integer(Int64(report.detailsMissing)),
            "notices": .array(report.notices.map(JSONValue.string)), "omdbFill": .init(report.omdbFill.map(omdbFill)),
            "items": .array(items.map { item in
                title(item.saved.key, item.lookup, savedAt: item.saved.addedAt).merging([
                    "addedAt": time(item.saved.addedAt), "position": .integer(Int64(item.saved.position)),
                    "omdb": .init(item.omdb.flatMap(omdb)),
                ])
            }),
        ]
    }

    /// A title's OMDb scores; nil for a title OMDb does not know.
    public static func omdb(_ scores: OMDbScores) -> JSONValue? {
        guard scores.found else { return nil }
        return [
            "imdbID": .string(scores.imdbID), "imdbRating": .init(scores.imdbRating.map(JSONValue.double)), "imdbVotes": integer(scores.imdbVotes),
            "metascore": integer(scores.metascore), "tomatometer": integer(scores.tomatometer),
        ]
    }

    /// How filling in OMDb's scores went, when the list asked for them.
    public static func omdbFill(_ fill: OMDbFillReport) -> JSONValue {
        [
            "wanted": .integer(Int64(fill.wanted)), "found": .integer(Int64(fill.found)), "missing": .integer(Int64(fill.missing)),
            "failed": .integer(Int64(fill.failed)), "left": .integer(Int64(fill.left)), "stopped": .init(fill.stopped.map { .string($0.description) }),
        ]
    }
}
