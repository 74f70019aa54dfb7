public import Reel
public import Stores

extension ReportJSON {
    /// One server of a PostgreSQL store (`store-status.schema.json#/properties/servers`, and
    /// `/ready`'s `store.servers` with its `shard`): role, lag, a primary's settings and standbys.
    public static func server(_ server: StoreServerStatus) -> JSONValue {
        [
            "server": .string(server.server), "role": .string(server.role), "problem": .init(server.problem.map(JSONValue.string)),
            "synchronousCommit": .init(server.synchronousCommit.map(JSONValue.string)),
            "synchronousStandbyNames": .init(server.synchronousStandbyNames.map(JSONValue.string)),
            "streaming": .init(server.streaming.map(JSONValue.bool)), "lagBytes": .init(server.lagBytes.map(JSONValue.integer)),
            "lagSeconds": .init(server.lagSeconds.map(JSONValue.double)),
            "standbys": .array(
                server.standbys.map {
                    [
                        "name": .string($0.name), "state": .string($0.state), "syncState": .string($0.syncState),
                        "lagBytes": .integer($0.lagBytes), "lagSeconds": .double($0.lagSeconds), "synchronous": .bool($0.synchronous),
                        "feedback": .bool($0.feedback),
                    ]
                }),
        ]
    }

    /// Whether a primary among `servers` has a synchronous standby streaming.
    public static func synchronousStandbyAttached(_ servers: [StoreServerStatus]) -> Bool {
        servers.contains { $0.role == "primary" && $0.standbys.contains(where: \.synchronous) }
    }
}
