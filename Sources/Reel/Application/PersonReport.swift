import Catalog
import Ledger

/// A person in the account's language: TMDb's details, the photo's address, and the
/// filmography newest first (as much of it as asked for), each title marked when saved.
public struct PersonReport: Sendable {
    public typealias Details = PersonDetails

    /// One title of the filmography.
    public struct Credit: Sendable {
        public let key: MediaKey
        public let title: String
        public let date: TMDbDate?
        /// `Sherlock Holmes (15 episodes)`, `Director`.
        public let role: String?
        public let savedAt: Int64?
    }

    public let language: String
    public let details: Details
    public let profileURL: String?
    public let credits: [Credit]
    /// How many titles the filmography was cut to (credits whose id is out of TMDb's range are
    /// left out of `credits`, not of this count).
    public let shown: Int
    /// How many titles the whole filmography has.
    public let total: Int
}
