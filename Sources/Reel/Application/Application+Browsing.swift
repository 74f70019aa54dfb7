import Catalog
import Failures
import Ledger

extension Application {
    /// TMDb's discover list (or its popular or top-rated chart) in the account's language, with
    /// genre names resolved to ids, a person named or given by id, and the titles the account
    /// saved marked. Pages after the first are fetched in parallel (`progress`: done, total).
    public func titleList(_ query: TitleListQuery, for handle: AccountHandle, progress: ((Int, Int) -> Void)? = nil) async throws
        -> TitleListReport
    {
        try query.check()
        let reader = try reader(handle)
        let language = reader.language
        let client = try catalogs.catalog()
        let mediaType = query.mediaType
        let genres = try await client.genres(mediaType, language: language)
        let chosen = try await GenreNames.resolve(query.genres, mediaType: mediaType, in: genres, client: client)
        var person: PersonName?
        if let wanted = query.person { person = try await PersonLookup.resolve(wanted, client: client, language: language) }
        var discover = DiscoverQuery(mediaType: mediaType)
        discover.order = query.order
        discover.descending = query.descending
        discover.genres = chosen.map(\.id)
        discover.genreMatch = query.anyGenre ? .any : .all
        discover.people = person.map { [$0.id] } ?? []
        discover.year = query.year
        discover.language = language
        let list = query.list
        let (results, paging) = try await PageFetcher.fetch(from: query.page, count: query.pages, progress: progress) { [discover] page in
            var discover = discover
            discover.page = page
            return try await Self.page(list, discover, client: client)
        }
        let rows = results.compactMap { TitleSummary($0, genres: genres) }.map {
            TitleListReport.Row(summary: $0, savedAt: reader.savedAt[$0.key])
        }
        return TitleListReport(query: query, language: language, genres: chosen, person: person, rows: rows, paging: paging)
    }

    /// Movies, series or people whose names match, in the account's language; titles the
    /// account saved are marked. Pages after the first are fetched in parallel.
    public func search(_ query: SearchQuery, for handle: AccountHandle, progress: ((Int, Int) -> Void)? = nil) async throws -> SearchReport {
        try query.check()
        let reader = try reader(handle)
        let language = reader.language
        let client = try catalogs.catalog()
        let (text, kind, year) = (query.text, query.kind, query.year)
        let movieGenres = kind == .movie || kind == .multi ? try await client.genres(.movie, language: language) : nil
        let seriesGenres = kind == .tv || kind == .multi ? try await client.genres(.tv, language: language) : nil
        let (results, paging) = try await PageFetcher.fetch(from: query.page, count: query.pages, progress: progress) {
            page -> PageFetcher.Slice<Found> in
            switch kind {
            case .movie: PageFetcher.Slice(try await client.searchMovies(text, page: page, language: language, year: year)) { .title(.movie($0)) }
            case .tv: PageFetcher.Slice(try await client.searchSeries(text, page: page, language: language, year: year)) { .title(.series($0)) }
            case .person: PageFetcher.Slice(try await client.searchPeople(text, page: page, language: language)) { .person($0) }
            case .multi:
                PageFetcher.Slice(try await client.searchMulti(text, page: page, language: language)) { result -> Found in
                    if case .person(let p) = result { return .person(p) }
                    return .title(result.media!)
                }
            }
        }
        let found: [SearchReport.Found] = results.compactMap { result in
            switch result {
            case .title(let media):
                guard let summary = TitleSummary(media, genres: media.isMovie ? movieGenres : seriesGenres) else { return nil }
                return .title(TitleListReport.Row(summary: summary, savedAt: reader.savedAt[summary.key]))
            case .person(let person):
                return .person(person)
            }
        }
        return SearchReport(query: query, language: language, results: found, paging: paging)
    }

    /// A person (a name, the most popular match, or a TMDb person id) in the account's language,
    /// with the newest `limit` titles of their filmography (all without a limit).
    public func person(_ wanted: String, limit: Int? = nil, for handle: AccountHandle) async throws -> PersonReport {
        let reader = try reader(handle)
        let language = reader.language
        let client = try catalogs.catalog()
        let found = try await PersonLookup.resolve(wanted, client: client, language: language)
        let details = try await client.person(found.id, language: language)
        let images = try await client.configuration().images
        var credits = details.combinedCredits?.filmography ?? []
        let total = credits.count
        if let limit { credits = Array(credits.prefix(limit)) }
        let rows: [PersonReport.Credit] = credits.compactMap { credit in
            guard let key = try? MediaKey(credit.media.isMovie ? .movie : .tv, Int64(credit.media.id)) else { return nil }
            return PersonReport.Credit(
                key: key, title: credit.media.title, date: credit.media.date, role: Self.role(credit), savedAt: reader.savedAt[key])
        }
        return PersonReport(
            language: language, details: details, profileURL: images.url(details.profilePath, kind: .profile, size: "h632"),
            credits: rows, shown: credits.count, total: total)
    }

    /// One title's details in the account's language, and whether the account saved it; with
    /// similar titles when asked for. An id TMDb does not have is not found.
    public func titleDetails(_ key: MediaKey, similar: Bool = false, for handle: AccountHandle) async throws -> TitleDetailsReport {
        let reader = try reader(handle)
        let client = try catalogs.catalog()
        do {
            var report = try await TitleDetailsReport.fetch(
                key, language: reader.language, similar: similar, saved: reader.savedAt, from: client)
            // OMDb after TMDb (its id comes from TMDb's answer); its failure is a note, never an error.
            let lookup = try await omdbFacts(report.imdbID)
            report.omdbStatus = OMDbFacts.status(of: lookup)
            if case .found(let title, let stale)? = lookup { report.omdb = OMDbFacts(title, stale: stale) }
            return report
        } catch CatalogError.notFound {
            throw Failure(.notFound, client.source.hasNo("\(key.mediaType.noun) with id \(key.id)"))
        }
    }

    /// TMDb's genres of `mediaType` (both kinds when `nil`), named in the account's language.
    public func genres(_ mediaType: MediaType? = nil, for handle: AccountHandle) async throws -> GenresReport {
        let language = try reader(handle).language
        let client = try catalogs.catalog()
        var lists: [(mediaType: MediaType, genres: [Genre])] = []
        for type in mediaType.map({ [$0] }) ?? [.movie, .tv] {
            lists.append((type, try await client.genres(type, language: language).genres))
        }
        return GenresReport(language: language, lists: lists)
    }

    /// One search result before its genre ids are named.
    private enum Found: Sendable {
        case title(MediaSummary)
        case person(PersonSummary)
    }

    private static func page(_ list: TitleListQuery.List, _ query: DiscoverQuery, client: CatalogClient) async throws
        -> PageFetcher.Slice<MediaSummary>
    {
        func wrap<T>(_ page: Page<T>, _ f: (T) -> MediaSummary) -> PageFetcher.Slice<MediaSummary> { PageFetcher.Slice(page, f) }
        switch (query.mediaType, list) {
        case (.movie, .popular): return wrap(try await client.popularMovies(page: query.page, language: query.language), MediaSummary.movie)
        case (.movie, .topRated): return wrap(try await client.topRatedMovies(page: query.page, language: query.language), MediaSummary.movie)
        case (.movie, .discover): return wrap(try await client.discoverMovies(query), MediaSummary.movie)
        case (.tv, .popular): return wrap(try await client.popularSeries(page: query.page, language: query.language), MediaSummary.series)
        case (.tv, .topRated): return wrap(try await client.topRatedSeries(page: query.page, language: query.language), MediaSummary.series)
        case (.tv, .discover): return wrap(try await client.discoverSeries(query), MediaSummary.series)
        }
    }

    /// `Sherlock Holmes (15 episodes)`, `Director`.
    static func role(_ credit: PersonCredit) -> String? {
        var role = credit.character.flatMap { $0.isEmpty ? nil : $0 } ?? credit.job
        if let count = credit.episodeCount, count > 0, role != nil {
            role! += " (\(count) episode\(count == 1 ? "" : "s"))"
        }
        return role
    }

}
