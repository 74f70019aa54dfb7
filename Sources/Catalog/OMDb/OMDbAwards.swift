import Foundation

/// OMDb's `Awards` line, read: `"Won 3 Oscars. 108 wins & 145 nominations total"`,
/// `"Nominated for 1 Oscar. 11 wins & 38 nominations total"`, `"Won 4 Primetime Emmys. 59 wins &
/// 156 nominations total"`, `"1 win & 2 nominations"`, `"3 nominations"`. The text is kept as
/// OMDb wrote it; the numbers are what could be read of it (nil where the line does not say).
public struct OMDbAwards: Sendable, Equatable {
    public let text: String
    /// The top award won (`Oscar`, `Primetime Emmy`, `Golden Globe`, `BAFTA Film Award`), and how many.
    public let topAward: String?
    public let topWins: Int?
    /// Nominated for the top award without winning it: how many.
    public let topNominations: Int?
    public let wins: Int?
    public let nominations: Int?

    public init(_ text: String) {
        self.text = text
        var topAward: String?, topWins: Int?, topNominations: Int?, wins: Int?, nominations: Int?
        for sentence in text.split(separator: ".").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let words = sentence.split(separator: " ").map(String.init)
            if words.first == "Won" || (words.first == "Nominated" && words.dropFirst().first == "for") {
                let start = words.first == "Won" ? 1 : 2
                guard words.count > start + 1, let count = Int(words[start]) else { continue }
                topAward = Self.singular(words[(start + 1)...].joined(separator: " "))
                if words.first == "Won" { topWins = count } else { topNominations = count }
                continue
            }
            for (index, word) in words.enumerated() where index > 0 {
                guard let count = Int(words[index - 1]) else { continue }
                if word.hasPrefix("win") { wins = count }
                if word.hasPrefix("nomination") { nominations = count }
            }
        }
        self.topAward = topAward
        self.topWins = topWins
        self.topNominations = topNominations
        self.wins = wins
        self.nominations = nominations
    }

    /// `Oscars` → `Oscar`, `Primetime Emmys` → `Primetime Emmy`.
    private static func singular(_ name: String) -> String {
        name.hasSuffix("s") ? String(name.dropLast()) : name
    }
}
