import Foundation

/// How OMDb writes values (see `reference/omdb-notes.md`): every value is a string, and a missing
/// one is `"N/A"` (sometimes `""`). These readers make both an absent value and turn OMDb's
/// number formats into numbers; a text that is none of its formats is absent, not an error.
enum OMDbValue {
    /// The text, unless it is `N/A`, empty or only spaces.
    static func text(_ raw: String?) -> String? {
        guard let trimmed = raw?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty, trimmed != "N/A" else { return nil }
        return trimmed
    }

    /// `"2,512,345"` → 2512345; `"$37,030,102"` → 37030102.
    static func whole(_ raw: String?) -> Int? {
        guard let text = text(raw) else { return nil }
        let digits = text.filter { $0 != "," && $0 != "$" }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else { return nil }
        return value
    }

    /// `"8.8"` or `"8.8/10"` → 8.8 (out of 10).
    static func outOfTen(_ raw: String?) -> Double? {
        guard let text = text(raw) else { return nil }
        let number = text.hasSuffix("/10") ? String(text.dropLast(3)) : text
        guard let value = Double(number), value.isFinite, (0...10).contains(value) else { return nil }
        return value
    }

    /// `"81%"` → 81.
    static func percent(_ raw: String?) -> Int? {
        guard let text = text(raw), text.hasSuffix("%"), let value = Int(text.dropLast()), (0...100).contains(value) else { return nil }
        return value
    }

    /// `"67/100"` or `"67"` → 67.
    static func outOfHundred(_ raw: String?) -> Int? {
        guard let text = text(raw) else { return nil }
        let number = text.hasSuffix("/100") ? String(text.dropLast(4)) : text
        guard let value = Int(number), (0...100).contains(value) else { return nil }
        return value
    }

    /// `"Drama, Thriller"` → ["Drama", "Thriller"].
    static func list(_ raw: String?) -> [String] {
        guard let text = text(raw) else { return [] }
        return text.split(separator: ",").compactMap { OMDbValue.text(String($0)) }
    }
}
