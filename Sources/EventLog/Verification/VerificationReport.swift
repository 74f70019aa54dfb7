/// The outcome of walking the hash chain.
public struct VerificationReport: Sendable, Equatable {
    public let eventsChecked: UInt64
    /// The head the chain ends at (as recomputed by the walk, not as claimed by `meta/head`).
    public let head: LogHead?
    /// The first rule that failed, or `nil` when the ledger is intact.
    public let problem: VerificationProblem?

    public var isIntact: Bool { problem == nil }

    @_spi(Stores) public init(eventsChecked: UInt64, head: LogHead?, problem: VerificationProblem?) {
        self.eventsChecked = eventsChecked
        self.head = head
        self.problem = problem
    }
}

/// Where the chain first breaks, and how.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The rules of `Schemas/ledger-layout.md`, "A ledger is intact when".
    public enum Rule: String, Sendable {
        case gap
        case undecodable
        case positionMismatch = "position-mismatch"
        case hashMismatch = "hash-mismatch"
        case brokenLink = "broken-link"
        case streamVersion = "stream-version"
        case timeOrder = "time-order"
        case headMismatch = "head-mismatch"
        case indexMismatch = "index-mismatch"
        case closedStreams = "closed-streams"
        case treeMismatch = "tree-mismatch"
    }

    public let position: UInt64
    public let rule: Rule
    public let detail: String

    @_spi(Stores) public init(position: UInt64, rule: Rule, detail: String) {
        self.position = position
        self.rule = rule
        self.detail = detail
    }

    public var description: String { "position \(position): \(rule.rawValue): \(detail)" }
}
