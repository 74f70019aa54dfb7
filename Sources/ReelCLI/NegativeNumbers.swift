/// Negative numbers on the command line (`reel show movie -5`, `--page -3`): ArgumentParser reads
/// `-5` as a short option, so the command said "Missing expected argument '<id>'" or "Unknown
/// option '-5'". No `reel` option is a dash and a digit, so such a word is a value: after a long
/// option it becomes that option's value (`--page=-3`), anywhere else it is put behind `--` with
/// the positional words that follow it, in order. The command then judges the number as it would
/// any other ("'-5' is not a TMDb id").
enum NegativeNumbers {
    static func protecting(_ arguments: [String]) -> [String] {
        var words = arguments
        var index = 0
        while index < words.count, words[index] != "--" {
            guard isNegativeNumber(words[index]) else {
                index += 1
                continue
            }
            let previous = index > 0 ? words[index - 1] : ""
            if previous.hasPrefix("--"), previous != "--", !previous.contains("=") {
                words[index - 1] = previous + "=" + words[index]
                words.remove(at: index)
                continue
            }
            var end = index
            while end < words.count, words[end] != "--", !words[end].hasPrefix("-") || isNegativeNumber(words[end]) { end += 1 }
            let run = Array(words[index..<end])
            words.removeSubrange(index..<end)
            if let terminator = words.firstIndex(of: "--") {
                words.insert(contentsOf: run, at: terminator + 1)
            } else {
                words += ["--"] + run
            }
        }
        return words
    }

    /// `-5`, `-0`, `-1.5`: a minus sign and a number, never an option name here.
    static func isNegativeNumber(_ word: String) -> Bool {
        guard word.count > 1, word.first == "-" else { return false }
        let rest = word.dropFirst()
        return rest.first!.isASCII && rest.first!.isNumber && rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
    }
}
