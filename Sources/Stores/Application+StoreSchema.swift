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

    /// What each PostgreSQL server of the store this application runs on is doing (its role,
    /// lag, the synchronous standby), by shard for a shard map (`shard` nil for one store); nil
    /// for the LMDB store. For `/ready`.
    public func storeServers(within limit: Duration = .seconds(2)) async throws -> [(shard: String?, servers: [StoreServerStatus])]? {
        guard let url = configuration.storeURL else { return nil }
        let locations: [(String?, PostgresLocation)]
        if storeIsShardMap {
            locations = try stores.shardMap().shards.map { ($0.name, $0.location) }
        } else {
            locations = [(nil, try stores.storeLocation(url))]
        }
        var found: [(shard: String?, servers: [StoreServerStatus])] = []
        for (shard, location) in locations {
            found.append((shard, await PostgresReplication.status(of: location, within: limit).servers.map(StoreServerStatus.init)))
        }
        return found
    }
}
