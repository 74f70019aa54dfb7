import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import PostgresStore
import ReelTestSupport

/// The PostgreSQL benchmark's baseline: rows shaped like Reel's (the same columns, sizes and
/// constraints: a migrated `reel_events`) inserted through the same driver and the same statement
/// as the store's appends (`INSERT … SELECT * FROM unnest(…)`), 1,000 per transaction, with
/// nothing else: no sealing, no hashing, no head, no streams, no checks.
enum RawInserts {
    /// How the baseline sends its rows: one `INSERT … SELECT * FROM unnest(…)` per transaction,
    /// or `COPY reel_events FROM STDIN` (text format, the one PostgresNIO writes).
    enum Method { case insert, copy }

    static func run(server: PostgresServer, database: String, events: Int, method: Method = .insert) async throws -> Double {
        _ = try await PostgresMigrator.migrate(try PostgresLocation(server.url(database: database)))
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: server.port, username: "postgres", password: PostgresServer.password, database: database, tls: .disable)
        let logger = Logger(label: "raw", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection = try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1, logger: logger)
        defer { Task { try? await connection.close() } }
        let stream = "account-1"
        let envelopeSize = 126 + stream.utf8.count + "favorite-added".utf8.count + StoreBench.payloadSize + 16
        var generator = SystemRandomNumberGenerator()
        // Made before the clock starts: the baseline's time is the driver's and the server's.
        let envelopes = (0..<1_000).map { _ in ByteBuffer(bytes: (0..<envelopeSize).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        let start = DispatchTime.now().uptimeNanoseconds
        var position = 0
        for _ in 0..<(events / 1_000) {
            let positions = (0..<1_000).map { Int64(position + $0 + 1) }
            position += 1_000
            let now = Int64(Date().timeIntervalSince1970 * 1e6)
            _ = try await connection.query("BEGIN", logger: logger).collect()
            switch method {
            case .insert:
                _ = try await connection.query(
                    """
                    INSERT INTO reel_events (position, stream, stream_version, event_id, type, recorded_at, envelope)
                    SELECT * FROM unnest(\(positions)::bigint[], \(positions.map { _ in stream })::text[], \(positions)::bigint[],
                        \(positions.map { _ in UUID() })::uuid[], \(positions.map { _ in "favorite-added" })::text[],
                        \(positions.map { _ in now })::bigint[], \(envelopes)::bytea[])
                    """, logger: logger
                ).collect()
            case .copy:
                // The rows as COPY's text format has them: tab-separated, bytea as \\x and hex.
                var text = ByteBuffer()
                for (index, position) in positions.enumerated() {
                    text.writeString("\(position)\t\(stream)\t\(position)\t\(UUID().uuidString.lowercased())\tfavorite-added\t\(now)\t\\\\x")
                    text.writeString(hex(envelopes[index]))
                    text.writeString("\n")
                }
                try await connection.copyFrom(
                    table: "reel_events", columns: ["position", "stream", "stream_version", "event_id", "type", "recorded_at", "envelope"], logger: logger
                ) { writer in try await writer.write(text) }
            }
            _ = try await connection.query("COMMIT", logger: logger).collect()
        }
        return Double(events / 1_000 * 1_000) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hex(_ buffer: ByteBuffer) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(buffer.readableBytes * 2)
        for byte in buffer.readableBytesView {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
