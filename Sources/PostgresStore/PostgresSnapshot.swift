public import EventLog
import Foundation
import Failures
import NIOCore
import PostgresNIO

/// A read snapshot of a PostgreSQL store (`PostgresEventStore.read`): one `REPEATABLE READ READ
/// ONLY` transaction, so the log and the projection tables are read as of one commit. Valid only
/// inside the closure it is lent to.
public final class PostgresSnapshot: EventStoreSnapshot {
    let reader: PostgresReader

    init(link: PostgresLink, store: PostgresEventStore) {
        reader = PostgresReader(link: link, store: store)
    }

    public func head() throws -> LogHead? { try reader.head() }

    public func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try reader.read(from: position, maxCount: maxCount)
    }

    public func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try reader.read(stream: stream, from: version, maxCount: maxCount)
    }

    public func table(_ name: ProjectionTableName) -> any ProjectionTable {
        PostgresProjectionTable(name: name.name, link: reader.link, overlay: nil)
    }

    public func treeFrontier() throws -> TreeFrontier {
        guard let row = try reader.link.run("SELECT tree FROM reel_head").first else {
            throw Failure.tampered("reel_head has no row (the schema is incomplete; was it altered?)", reader.link.location)
        }
        return try PostgresTree.frontier(try row.decode(ByteBuffer.self), reader.link)
    }

    public func treeHashes(at indexes: [UInt64]) throws -> [TreeHash] { try PostgresTree.hashes(at: indexes, reader.link) }

    public func leafHashes(from position: UInt64, maxCount: Int) throws -> [TreeHash] {
        try PostgresTree.leafHashes(from: position, maxCount: maxCount, reader.link)
    }
}
