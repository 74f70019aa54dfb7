import Crypto
import Foundation
import LMDB
import Synchronization

/// The per-stream sealing keys, in their own small LMDB environment (`keys/`).
///
/// A stream's key is made with its first event. Destroying it (crypto-shredding) leaves a marker,
/// so the stream can never get a new key and its sealed payloads stay unreadable for good; then
/// the environment is rewritten compactly so the key's bytes are in no file any more.
///
/// Another process may rewrite the environment while this one has it open: a handle on the old
/// file still reads every key that existed then, so it is reopened only before writing and when a
/// stream has no key in it (the key may have been made in the new file since).
final class KeyStore: Sendable {
    enum State: Sendable {
        case live(SymmetricKey)
        case destroyed(atMicroseconds: Int64)
    }

    private struct Opened: Sendable {
        let environment: Environment
        let keys: Database<String, [UInt8]>

        init(_ environment: Environment) throws {
            self.environment = environment
            keys = try environment.database(named: "stream-keys")
        }
    }

    let directory: String
    private let configuration: Environment.Configuration
    private let opened: Mutex<Opened>
    private let cache = Mutex<[StreamID: State]>([:])

    init(directory: String, configuration: Environment.Configuration) throws {
        self.directory = directory
        self.configuration = configuration
        try Environment.finishInterruptedRewrite(at: directory)
        opened = Mutex(try Opened(Environment.open(at: directory, configuration: configuration)))
    }

    var environment: Environment { opened.withLock { $0.environment } }

    private var current: Opened { opened.withLock { $0 } }

    /// The handle on the file the directory holds now (reopened after another process's rewrite).
    private func fresh() throws -> Opened {
        let held = current
        guard try held.environment.isSuperseded else { return held }
        let reopened = try Opened(Environment.reopen(at: directory, configuration: configuration))
        opened.withLock { $0 = reopened }
        return reopened
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
        var store = current
        var stored = try store.environment.read { txn in try txn.get(store.keys, stream.rawValue) }
        if stored == nil {
            store = try fresh()
            stored = try store.environment.read { txn in try txn.get(store.keys, stream.rawValue) }
        }
        guard let stored, let state = Self.decode(stored) else { return nil }
        cache.withLock { $0[stream] = state }
        return state
    }

    /// The key to open the stream's payloads, `nil` when it is destroyed (or never existed).
    func key(for stream: StreamID) throws -> SymmetricKey? {
        if case .live(let key) = try state(of: stream) { return key }
        return nil
    }

    /// Runs `body` in a write transaction on the current file, reopening it first if another
    /// process rewrote it (checked under the write lock, so no rewrite can slip in between).
    private func write<T>(_ body: (Transaction, Database<String, [UInt8]>) throws -> T) throws -> T {
        while true {
            let store = try fresh()
            var superseded = false
            let value: T? = try store.environment.write { txn in
                if try store.environment.isSuperseded {
                    superseded = true
                    return nil
                }
                return try body(txn, store.keys)
            }
            if !superseded, let value { return value }
        }
    }

    /// The key to seal new events of the stream, made (durably) on first use.
    func sealingKey(for stream: StreamID) throws -> SymmetricKey {
        switch try state(of: stream) {
        case .live(let key): return key
        case .destroyed: throw EventLogError.streamShredded(stream)
        case nil: break
        }
        let state: State = try write { txn, keys in
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

    /// Replaces the streams' keys with destroyed markers (a stream without a key gets a marker
    /// too, so it can never get one). The key bytes stay in freed pages until `rewrite()`.
    func destroy(_ streams: [StreamID], atMicroseconds time: Int64) throws {
        guard !streams.isEmpty else { return }
        var marker: [UInt8] = [0]
        withUnsafeBytes(of: UInt64(bitPattern: time).bigEndian) { marker.append(contentsOf: $0) }
        try write { txn, keys in
            for stream in streams {
                if let stored = try txn.get(keys, stream.rawValue), stored.first == 0 { continue }
                try txn.put(keys, stream.rawValue, marker)
            }
        }
        cache.withLock { cache in
            for stream in streams { cache[stream] = .destroyed(atMicroseconds: time) }
        }
    }

    /// Rewrites the environment compactly (see `Environment.rewriteCompactly`), so destroyed keys
    /// leave no bytes in any file.
    func rewrite(reached: (Environment.RewriteStep) -> Void = { _ in }) throws {
        while true {
            let store = try fresh()
            do {
                let rewritten = try Opened(store.environment.rewriteCompactly(reached: reached))
                opened.withLock { $0 = rewritten }
                return
            } catch LMDBError.Code.busy {
                continue  // another process rewrote it first: take the new file and go again
            }
        }
    }

    /// How many keys the store holds: live and destroyed.
    func counts() throws -> (live: Int, destroyed: Int) {
        let store = try fresh()
        return try store.environment.read { txn in
            try txn.withCursor(store.keys) { cursor in
                var live = 0, destroyed = 0
                var entry = try cursor.first()
                while let e = entry {
                    if e.value.first == 1 { live += 1 } else { destroyed += 1 }
                    entry = try cursor.next()
                }
                return (live, destroyed)
            }
        }
    }
}
