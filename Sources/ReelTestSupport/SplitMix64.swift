/// A deterministic pseudo-random generator (SplitMix64, Steele, Lea & Flood 2014), so property
/// tests reproduce from their seed without any external library.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0..<items.count)] }
}
