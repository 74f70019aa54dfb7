import Crypto
import Foundation
import LMDB
import Synchronization

/// The per-stream sealing keys, in their own small LMDB environment (`keys/`).
///
/// A stream's key is made with its first event. Destroying it (crypto-shredding) leaves a marker,
/// so the stream can never get a new key and its sealed payloads stay unreadable for good.
final class KeyStore: Sendable {
    enum State: Sendable {
        case live(SymmetricKey)
        case destroyed(atMicroseconds: Int64)
    }

    let environment: Environment
    private let keys: Database<String, [UInt8]>
    private let cache = Mutex<[StreamID: State]>([:])

    init(directory: String, configuration: Environment.Configuration) throws {
        environment = try Environment.open(at: directory, configuration: configuration)
        keys = try environment.database(named: "stream-keys")
    }

    private static func decode(_ bytes: [UInt8]) -> State? {
        if bytes.count == 33, bytes[0] == 1 { return .live(SymmetricKey(data: bytes[1...])) }
        if bytes.count == 9, bytes[0] == 0 {
            let micros = bytes[1...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return .destroyed(atMicroseconds: Int64(bitPattern: micros))
        }
        return nil
    }

    /// The stream's key state, or `nil` when the stream never had a key.
    func state(of stream: StreamID) throws -> State? {
        if let state = cache.withLock({ $0[stream] }) { return state }
        let stored = try environment.read { txn in try txn.get(keys, stream.rawValue) }
        guard let stored, let state = Self.decode(stored) else { return nil }
        cache.withLock { $0[stream] = state }
        return state
    }

    /// The key to open the stream's payloads, `nil` when it is destroyed (or never existed).
    func key(for stream: StreamID) throws -> SymmetricKey? {
        if case .live(let key) = try state(of: stream) { return key }
        return nil
    }

    /// The key to seal new events of the stream, made (durably) on first use.
    func sealingKey(for stream: StreamID) throws -> SymmetricKey {
        switch try state(of: stream) {
        case .live(let key): return key
        case .destroyed: throw EventLogError.streamShredded(stream)
        case nil: break
        }
        let state: State = try environment.write { txn in
            // Another process may have made it meanwhile: the write lock makes check-then-put atomic.
            if let stored = try txn.get(keys, stream.rawValue), let state = Self.decode(stored) { return state }
            let key = SymmetricKey(size: .bits256)
            try txn.put(keys, stream.rawValue, [1] + key.withUnsafeBytes { Array($0) })
            return .live(key)
        }
        cache.withLock { $0[stream] = state }
        if case .live(let key) = state { return key }
        throw EventLogError.streamShredded(stream)
    }
}
