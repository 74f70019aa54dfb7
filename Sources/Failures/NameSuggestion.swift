/// The names a mistyped one was probably meant to be: those within a small edit distance
/// (Damerau–Levenshtein, so `exprot` is one step from `export`), else the one it is the start of.
public enum NameSuggestion {
    /// The nearest of `names` to `typed`, best first; several only when they are equally near.
    /// Empty when nothing is near: a word of three letters or fewer may be one edit off, a longer
    /// one two, so `foo` is not taken for `fav`. A word that starts a few names (`acc`) names them.
    public static func nearest(to typed: String, among names: [String]) -> [String] {
        let typed = typed.lowercased()
        let allowed = typed.count <= 3 ? 1 : 2
        // Two words whose lengths differ by more than `allowed` are further apart than that: not
        // measured, so a word of thousands of characters costs no more than a short one.
        let length = typed.count
        let scored = names.filter { abs($0.count - length) <= allowed }
            .map { (name: $0, distance: distance(typed, $0.lowercased())) }.filter { $0.distance <= allowed }
        if let best = scored.map(\.distance).min() {
            return scored.filter { $0.distance == best }.map(\.name).sorted()
        }
        let started = names.filter { $0.lowercased().hasPrefix(typed) }
        return started.count <= 3 ? started.sorted() : []
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps
    /// of two neighbouring characters each count one.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
