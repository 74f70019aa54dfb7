import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// CPU-bound work over a batch, split into contiguous slices across the cores.
///
/// Sealing and opening payloads (AES-GCM) and hashing envelopes (SHA-256) cost about a microsecond
/// each; a batch of thousands is worth spreading. Small batches stay on the calling thread.
public enum Parallel {
    static let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// How many lanes a batch of `count` items gets.
    static func lanes(for count: Int, threshold: Int = 256) -> Int {
        count >= threshold ? min(cores, 4) : 1
    }

    /// Maps `items` in order. Each lane starts from its own `state` (for example a cache of the last
    /// stream's key), which `transform` may update without locking.
    public static func map<T: Sendable, State: Sendable, R>(
        _ items: [T], threshold: Int = 256, state: State, _ transform: @Sendable (inout State, T) throws -> R
    ) throws -> [R] {
        let lanes = lanes(for: items.count, threshold: threshold)
        if lanes == 1 {
            var state = state
            return try items.map { try transform(&state, $0) }
        }
        var results = [Result<R, any Error>?](repeating: nil, count: items.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let out = DisjointWrites(buffer)
            DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                var state = state
                for i in (items.count * lane / lanes)..<(items.count * (lane + 1) / lanes) {
                    out.buffer[i] = Result { try transform(&state, items[i]) }
                }
            }
        }
        return try results.map { try $0!.get() }
    }
}

/// A buffer whose lanes write disjoint indices, handed across `concurrentPerform`.
struct DisjointWrites<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
