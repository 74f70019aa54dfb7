import NIOCore
import PostgresNIO

/// A statement whose text is the same at every run, its values bound as parameters (`$1`, …),
/// and whose rows nobody reads: one a connection prepares once (`PostgresLink.prepare`) and then
/// runs by name, so the server parses and plans it once per connection instead of at every run.
/// The write path's hot statements are such (a write transaction's last statement, the
/// durability mark): what their answers say is whether they succeeded.
///
/// (postgres-nio's prepared statements that can be sent without waiting, the older API, label
/// the binary rows they ask for as text, so their rows are not decoded; its newer API waits.)
struct PreparedText {
    let sql: String
    private(set) var binds: [PostgresData] = []

    init(_ sql: String) {
        self.sql = sql
    }

    /// Binds `value` as the next parameter.
    mutating func bind<Value: PostgresEncodable>(_ value: Value) throws {
        var bytes = ByteBuffer()
        try value.encode(into: &bytes, context: .default)
        binds.append(PostgresData(type: Value.psqlType, formatCode: Value.psqlFormat, value: bytes))
    }

    /// Binds `value`, or SQL's `NULL` of its type.
    mutating func bind<Value: PostgresEncodable>(_ value: Value?) throws {
        guard let value else {
            binds.append(PostgresData(type: Value.psqlType, formatCode: Value.psqlFormat, value: nil))
            return
        }
        try bind(value)
    }
}
