/// What a title a person typed stands for (`Application.resolveTitle`).
public enum TitleResolution: Sendable {
    /// One title clearly wins: the only result, or the only one whose title (or original title)
    /// is the text itself, ignoring case and accents.
    case found(TitleSummary)
    /// More than one could be meant: the candidates, exact matches first, then in TMDb's order.
    case ambiguous([TitleSummary])
    /// Nothing matched.
    case notFound
}
