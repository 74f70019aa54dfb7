public import Reel

/// One thing a search found: a title (opens its details) or a person (opens their filmography).
public enum SearchResult: Sendable, Equatable {
    /// A person as a search lists them.
    public struct Person: Sendable, Equatable {
        /// TMDb's person id.
        public var id: Int
        public var name: String
        /// `Acting`, `Directing`.
        public var department: String?
        /// TMDb's profile path, for the row's thumbnail (`p`).
        public var profilePath: String?

        public init(id: Int, name: String, department: String? = nil, profilePath: String? = nil) {
            self.id = id
            self.name = name
            self.department = department
            self.profilePath = profilePath
        }
    }

    case title(TitleRow)
    case person(Person)

    /// What the application core found, as the app lists it.
    public init(_ found: SearchReport.Found) {
        switch found {
        case .title(let row): self = .title(TitleRow(row))
        case .person(let person): self = .person(Person(id: person.id, name: person.name, department: person.knownForDepartment, profilePath: person.profilePath))
        }
    }
}
