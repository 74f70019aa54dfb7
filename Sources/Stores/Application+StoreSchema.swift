import PostgresStore
@_spi(Stores) public import Reel

extension Application {
    /// Creates or upgrades the schema of the PostgreSQL store `url` names to the version this Reel
    /// knows, in one transaction; a store at that version is left as it is. A URL without a
    /// password takes `PGPASSWORD` from the configuration's environment, as libpq does.
    public func migrateStore(_ url: String) async throws -> StoreSchemaReport {
        let location = try stores.storeLocation(url)
        let report = try await PostgresMigrator.migrate(location)
        return StoreSchemaReport(
            store: report.store, from: report.from, to: report.to, latest: PostgresMigration.latest,
            applied: report.applied.map { StoreSchemaReport.Step(version: $0.version, name: $0.name) })
    }

    /// The schema version of the PostgreSQL store `url` names, changing nothing; and what each
    /// server its URL names is doing (role, lag, the synchronous standby).
    public func storeStatus(_ url: String) async throws -> (schema: StoreSchemaReport, servers: [StoreServerStatus]) {
        let location = try stores.storeLocation(url)
        let servers = await PostgresReplication.status(of: location).servers.map(StoreServerStatus.init)
        let version = try await PostgresMigrator.version(of: location)
        return (StoreSchemaReport(store: location.description, from: version, to: version, latest: PostgresMigration.latest, applied: []), servers)
    }
}
