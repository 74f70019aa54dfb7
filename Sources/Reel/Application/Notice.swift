/// A note for the person using a front end, beside a command's result: about the catalog (no
/// credentials, a language the sample catalog lacks, a damaged cache, a credentials file others
/// can read).
public struct Notice: Sendable, Equatable {
    public let text: String
    /// Set on a note that says the same thing on every command (the sample catalog is in use): a
    /// front end may show it once a day instead (`ShownNotices`). `nil`: a note worth showing
    /// each time it happens.
    public let routine: String?

    public init(_ text: String, routine: String? = nil) {
        self.text = text
        self.routine = routine
    }
}
