/// `GET /person/{id}/combined_credits`, or the appended `combined_credits` object.
public struct CombinedCredits: Decodable, Sendable, Hashable {
    public let id: Int?
    public let cast: [PersonCredit]
    public let crew: [PersonCredit]

    enum CodingKeys: String, CodingKey { case id, cast, crew }

    private struct Row: Decodable {
        let credit: PersonCredit?
        init(from decoder: any Decoder) throws { credit = try PersonCredit(decoding: decoder) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int.self, forKey: .id)
        cast = try c.list(Row.self, .cast).compactMap(\.credit)
        crew = try c.list(Row.self, .crew).compactMap(\.credit)
    }

    /// Every title once (the first credit wins), newest first; titles with no date go last.
    public var filmography: [PersonCredit] {
        var seen = Set<String>()
        let all = (cast + crew).filter { credit in
            let key = "\(credit.media.isMovie ? "movie" : "tv")-\(credit.media.id)"
            return seen.insert(key).inserted
        }
        return all.sorted { a, b in
            switch (a.media.date, b.media.date) {
            case let (x?, y?): return x != y ? x > y : a.media.title < b.media.title
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.media.title < b.media.title
            }
        }
    }
}

extension MediaSummary {
    public var isMovie: Bool {
        if case .movie = self { return true }
        return false
    }
}
