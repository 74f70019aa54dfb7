/// When a terminal's answers stop being waited for, asked before each wait: in a program, the
/// time left to an instant on the continuous clock; in a test, an instant on a clock that moves
/// only when the test moves it, looked at again every few milliseconds (nothing wakes a poll when
/// such a clock moves), so what ends a wait is an answer or the test, never a busy machine.
struct AnswerDeadline: Sendable {
    /// How long poll(2) may wait now, in milliseconds (0 once the deadline has passed), and
    /// whether the deadline has passed when that wait ends with nothing to read.
    let nextWait: @Sendable () -> (milliseconds: Int32, isLast: Bool)

    init(nextWait: @escaping @Sendable () -> (milliseconds: Int32, isLast: Bool)) {
        self.nextWait = nextWait
    }

    /// `instant` on the continuous clock: a poll waits the whole of what is left.
    static func continuous(_ instant: ContinuousClock.Instant) -> AnswerDeadline {
        AnswerDeadline { (TmuxQuery.remainingMilliseconds(until: instant), true) }
    }

    /// `instant` on `clock`: a poll waits `slice` milliseconds at most, then looks at `clock` again.
    static func on<C: Clock>(_ clock: C, at instant: C.Instant, slice: Int32 = 5) -> AnswerDeadline {
        AnswerDeadline { clock.now < instant ? (slice, false) : (0, true) }
    }
}
