public import Reel

/// A person as the app shows them: name, a line of facts, and the filmography newest first
/// (each title with the person's role in it, ★ when saved).
public struct PersonPage: Sendable, Equatable {
    /// A title of the filmography.
    public struct Credit: Sendable, Equatable {
        public var row: TitleRow
        /// `Sherlock Holmes (15 episodes)`, `Director`.
        public var role: String?

        public init(row: TitleRow, role: String? = nil) {
            self.row = row
            self.role = role
        }
    }

    /// TMDb's person id.
    public var id: Int
    public var name: String
    /// `known for Acting · born 1976-07-19 in London`.
    public var facts: String
    public var credits: [Credit]

    public init(id: Int, name: String, facts: String = "", credits: [Credit] = []) {
        self.id = id
        self.name = name
        self.facts = facts
        self.credits = credits
    }

    /// The application core's person report, as the app shows it.
    public init(_ report: PersonReport) {
        let details = report.details
        var facts: [String] = []
        if let department = details.knownForDepartment { facts.append("known for \(department)") }
        if let birthday = details.birthday { facts.append("born \(birthday)" + (details.placeOfBirth.map { " in \($0)" } ?? "")) }
        if let deathday = details.deathday { facts.append("died \(deathday)") }
        self.init(
            id: details.id, name: details.name, facts: facts.joined(separator: " · "),
            credits: report.credits.map { credit in
                Credit(row: TitleRow(key: credit.key, title: credit.title, year: credit.date?.year, date: credit.date?.description, saved: credit.savedAt != nil), role: credit.role)
            })
    }
}
