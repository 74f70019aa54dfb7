@_spi(Stores) public import EventLog

/// The PostgreSQL store purges destroyed keys after a deletion's commit (`deferPurges`,
/// `purgeProblem`): what a use case that deletes or moves accounts asks of it.
@_spi(Stores) extension PostgresEventStore: DeferredPurging {
    public var name: String { location.description }
}

/// A PostgreSQL store's write takes accounts moved from another shard (`adopt`).
@_spi(Stores) extension PostgresWrite: AccountAdopting {}
