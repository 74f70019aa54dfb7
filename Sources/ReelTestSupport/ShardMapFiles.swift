import Foundation

/// Shard maps over databases of one test server (`Schemas/postgres-shards.md`), for tests that
/// grow a map: `databases` new databases, and a map file naming the first N of them for any N.
public struct ShardMapFiles: Sendable {
    public let urls: [String]
    private let directory: String
    /// The shards' names, in the maps' order.
    public static let names = ["a", "b", "c", "d"]

    public init(_ server: PostgresServer, prefix: String, databases: Int) async throws {
        var urls: [String] = []
        for n in 1...databases { urls.append(server.url(database: try await server.createDatabase("\(prefix)_\(n)"))) }
        self.urls = urls
        directory = temporaryDirectory("map-" + prefix)
    }

    /// The path of a map of the first `count` databases (shards named a, b, c…), written now.
    public func map(_ count: Int) throws -> String {
        let path = directory + "/shards-\(count).json"
        let shards = zip(Self.names, urls).prefix(count).map { #"{"name": "\#($0)", "url": "\#($1)"}"# }
        try Data(#"{"format": "reel-shards/1", "shards": [\#(shards.joined(separator: ", "))]}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
