import Foundation

/// Text as searches compare it: case and accents folded away ("amélie" matches "Amelie").
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether `needle` occurs in `haystack`, ignoring case and accents.
    public static func contains(_ haystack: String, _ needle: String) -> Bool {
        let folded = fold(needle)
        return folded.isEmpty || fold(haystack).contains(folded)
    }
}
