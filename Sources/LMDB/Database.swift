import CLMDB

/// A named database inside an environment, typed by how its keys and values are encoded.
///
/// The handle is opened once per environment and stays valid until the environment closes
/// (LMDB's DBI handles are never closed one by one: `mdb_dbi_close` is unsafe while in use).
public struct Database<Key, Value>: Sendable {
    public let name: String
    let dbi: MDB_dbi
    let environmentID: ObjectIdentifier

    /// The same database seen through other key and value encodings.
    public func retyped<K, V>(_: K.Type = K.self, _: V.Type = V.self) -> Database<K, V> {
        Database<K, V>(name: name, dbi: dbi, environmentID: environmentID)
    }
}

/// Flags for `Transaction.put`.
public struct PutFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Fail with `.keyExist` instead of replacing an existing value.
    public static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// The key sorts after every key in the database: a fast path for increasing keys.
    /// A key out of order fails with `.keyExist`; the transaction stays usable.
    public static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
}

/// Counters of one database (`mdb_stat`).
public struct DatabaseStatistics: Sendable, Equatable {
    public let entries: Int
    public let depth: Int
    public let branchPages: Int
    public let leafPages: Int
    public let overflowPages: Int
    public let pageSize: Int
}
