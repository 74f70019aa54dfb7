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
        count >= threshold ? maximumLanes : 1
    }

    /// Lanes a large batch is split into: one per core, at most four.
    public static let maximumLanes = min(cores, 4)

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
        // Each lane initializes its own contiguous slice of the result in place and stops at its
        // first error; the error of the earliest lane to fail is the earliest in `items`.
        let count = items.count
        var failures = [(any Error)?](repeating: nil, count: lanes)
        var made = [Int](repeating: 0, count: lanes)
        let results = [R](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = DisjointWrites(buffer)
            failures.withUnsafeMutableBufferPointer { failures in
                made.withUnsafeMutableBufferPointer { made in
                    let failed = DisjointWrites(failures)
                    let counts = DisjointWrites(made)
                    LanePool.shared.run(lanes: lanes) { lane in
                        var state = state
                        let start = count * lane / lanes
                        var i = start
                        do {
                            while i < count * (lane + 1) / lanes {
                                (out.buffer.baseAddress! + i).initialize(to: try transform(&state, items[i]))
                                i += 1
                            }
                        } catch {
                            failed.buffer[lane] = error
                        }
                        counts.buffer[lane] = i - start
                    }
                }
            }
            if failures.contains(where: { $0 != nil }) {
                for lane in 0..<lanes { (buffer.baseAddress! + count * lane / lanes).deinitialize(count: made[lane]) }
                initialized = 0
            } else {
                initialized = count
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        return results
    }
}

/// A buffer whose lanes write disjoint indices, handed across the lanes' threads.
package struct DisjointWrites<Element>: @unchecked Sendable {
    package let buffer: UnsafeMutableBufferPointer<Element>
    package init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
