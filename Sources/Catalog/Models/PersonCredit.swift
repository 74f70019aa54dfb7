/// One of a person's credits (`combined_credits.cast[]` / `.crew[]`): a movie or series with the
/// character played or the job done. Rows of an unknown `media_type` are skipped by the list.
public struct PersonCredit: Sendable, Hashable {
    public let media: MediaSummary
    public let character: String?
    public let job: String?
    public let department: String?
    public let creditID: String?
    public let episodeCount: Int?
}

extension PersonCredit {
    enum CodingKeys: String, CodingKey {
        case character, job, department
        case creditID = "credit_id", episodeCount = "episode_count"
    }

    /// Nil for a row whose media type is neither movie nor tv.
    init?(decoding decoder: any Decoder) throws {
        guard let media = try MultiSearchResult(from: decoder).media else { return nil }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.media = media
        character = try c.text(.character)
        job = try c.text(.job)
        department = try c.text(.department)
        creditID = try c.text(.creditID)
        episodeCount = try c.decodeIfPresent(Int.self, forKey: .episodeCount)
    }
}
