/// What `reel store migrate` did to a PostgreSQL store's schema, or what `reel store status`
/// found (`Schemas/postgres-layout.md`).
public struct StoreSchemaReport: Sendable, Equatable {
    /// One migration step.
    public struct Step: Sendable, Equatable {
        public let version: Int
        public let name: String
    }

    /// The store's URL without its password.
    public let store: String
    /// The schema version found: 0 for a database Reel has never migrated.
    public let from: Int
    /// The schema version now (the same as `from` when nothing was applied).
    public let to: Int
    /// The newest version this Reel knows.
    public let latest: Int
    /// The steps applied, in order.
    public let applied: [Step]

    /// Whether the store is at the version this Reel knows.
    public var isCurrent: Bool { to == latest }
}
