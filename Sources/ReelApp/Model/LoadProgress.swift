/// How far a long load has come, said while it runs: the saved list's details fetched from TMDb
/// (`details 120 of 3000`) or OMDb's scores filled in (`OMDb's scores 120 of 900`), which the
/// list waits for the first time it is read.
public struct LoadProgress: Sendable, Equatable {
    public var what: String
    public var done: Int
    public var total: Int

    public init(_ what: String, done: Int, total: Int) {
        self.what = what
        self.done = done
        self.total = total
    }

    /// `OMDb's scores 120 of 900`.
    public var text: String { "\(what) \(done) of \(total)" }

    /// Whether a step is worth a message to the app: about every fiftieth of the way and the
    /// last, so a list of thousands redraws the screen some fifty times, not thousands.
    public static func isWorthTelling(done: Int, total: Int) -> Bool {
        done == total || done % max(1, total / 50) == 0
    }
}
