/// A projection table opened by a store (`EventStore.projectionTable(named:)`), to be named again
/// inside that store's transactions (`EventStoreSnapshot.table`).
public struct ProjectionTableName: Sendable, Hashable, CustomStringConvertible {
    /// The table's name in the store.
    public let name: String
    /// What the store that opened the table finds it by (LMDB: the database handle); meaningless
    /// to any other store.
    public let storeHandle: UInt32

    /// For stores: names the table `name` that the store finds by `storeHandle`.
    public init(name: String, storeHandle: UInt32) {
        self.name = name
        self.storeHandle = storeHandle
    }

    public var description: String { name }
}
