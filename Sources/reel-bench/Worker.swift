import LMDBStore
import ArgumentParser
import EventLog
import Foundation
import LMDB
import PostgresStore

/// Appends events from several tasks and acknowledges each one on stdout as "position event-id",
/// after it is durably committed. Tests run several of these at once, and kill some mid-way.
struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "worker", abstract: "Append events and print one acknowledgement per committed event.")

    @Option(help: "The data directory.") var dataDir: String
    @Option(help: "The stream to append to.") var stream: String
    @Option(help: "How many events to append in all.") var count: Int
    @Option(help: "How many tasks append at once (group commit).") var concurrency = 8
    @Option(help: "The map size to start from, in bytes.") var initialMapSize = 64 << 10
    @Option(help: "Payload size in bytes.") var payloadSize = 200
    @Option(help: "A PostgreSQL store to append to instead of the data directory's LMDB store.") var store: String?
    @Flag(help: "Try a failed append again, the same event, until it is stored (errors go to stderr).") var retry = false

    func run() async throws {
        let log: any EventStore
        if let store {
            var opened: PostgresEventStore?
            while opened == nil {
                do {
                    opened = try PostgresEventStore.open(
                        try PostgresLocation(store), directory: dataDir, keyring: ProcessInfo.processInfo.environment["REEL_KEYRING"].flatMap { $0.isEmpty ? nil : $0 })
                } catch where retry {
                    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            log = opened!
        } else {
            var configuration = EventLog.Configuration()
            configuration.ledger.initialMapSize = initialMapSize
            log = try EventLog.open(at: dataDir, configuration: configuration)
        }
        let retry = retry
        let stream = try StreamID(stream)
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: payloadSize)
        let counter = Counter(limit: count)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, concurrency) {
                group.addTask {
                    while counter.take() {
                        let event = try ProposedEvent(type: "stress-appended", payload: payload)
                        var stored: AppendResult?
                        while stored == nil {
                            do {
                                stored = try await log.append([event], to: stream, expected: .any)
                            } catch where retry {
                                // A retry of the same event appends nothing if the first try committed.
                                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                                try await Task.sleep(for: .milliseconds(50))
                            }
                        }
                        let result = stored!
                        let line = "\(result.positions[0]) \(event.id.uuidString.lowercased())\n"
                        // One write(2) per line: lines from concurrent tasks never interleave.
                        _ = line.utf8CString.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count - 1) }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// Hands out `limit` tickets to concurrent tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    init(limit: Int) { remaining = limit }
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard remaining > 0 else { return false }
        remaining -= 1
        return true
    }
}
