extension ReplayCheck {
    /// Anchors a check for a store that reads recorded events and continues it with `check(_:)`:
    /// at position 1 on nothing, later (the first call) on the envelope before, which `anchor`
    /// reads (its hash and time; `nil` when the log has no envelope there). Returns `false` when
    /// there is no envelope before: the range must then be empty.
    @_spi(Stores) public func begin(_ positions: Range<UInt64>, anchor: () throws -> (hash: [UInt8], time: Int64)?) throws -> Bool {
        try start(positions, before: anchor).anchored
    }

    /// The problem `brokenChain` names at `position`: for a store's own checks of what it read.
    @_spi(Stores) public static func broken(_ position: UInt64, _ rule: VerificationProblem.Rule, _ detail: String) -> EventLogError {
        problem(position, rule, detail)
    }
}

extension Parallel {
    /// Runs `body(lane)` for each of `count` lanes at once, on the pool's threads and the calling
    /// one; returns when every lane has.
    @_spi(Stores) public static func lanes(_ count: Int, _ body: (Int) -> Void) {
        LanePool.shared.run(lanes: count, body)
    }
}
