import Hummingbird
import Synchronization

/// The images the service answered lately, kept in memory with their ETag (at most `capacity`
/// bytes, the oldest let go first), so a page's posters are answered without a read of the
/// image cache's file or a hash of its bytes each time. Only an image answered in the size it
/// was asked in is kept: TMDb's paths name their content, so a kept one never goes stale.
final class ImageMemory: Sendable {
    struct Entry: Sendable {
        let body: ByteBuffer
        let etag: String
        let contentType: String
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var bytes = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 64 << 20) {
        self.capacity = capacity
    }

    func entry(_ key: String) -> Entry? {
        state.withLock { $0.entries[key] }
    }

    /// Keeps `entry` under `key` (an image larger than a quarter of the capacity is not kept).
    func keep(_ entry: Entry, as key: String) {
        let size = entry.body.readableBytes
        guard size <= capacity / 4 else { return }
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            state.entries[key] = entry
            state.order.append(key)
            state.bytes += size
            var dropped = 0
            while state.bytes > capacity, dropped < state.order.count {
                let oldest = state.order[dropped]
                dropped += 1
                if let gone = state.entries.removeValue(forKey: oldest) { state.bytes -= gone.body.readableBytes }
            }
            if dropped > 0 { state.order.removeFirst(dropped) }
        }
    }

    var keptBytes: Int { state.withLock { $0.bytes } }
}
