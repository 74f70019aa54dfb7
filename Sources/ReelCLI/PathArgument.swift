import Reel
import Foundation

/// A path a person gives: an argument, an option or `REEL_DATA_DIR`.
///
/// An empty path is a usage error (exit 64): it names nothing, and "" joined with `/ledger`
/// is `/ledger`, so an empty backup target once wrote a whole backup into `/`. A leading `~` or
/// `~/` means the home directory (`$HOME`), as in the shell: the shell does not expand it in
/// `--data-dir=~/x`, in quotes, or in environment files, and a literal `~` directory is never
/// what was meant. `~name/…` (another user's home) is refused rather than taken literally.
enum PathArgument {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// For `@Option(transform:)` and `@Argument(transform:)`.
    static func parse(_ text: String) throws -> String {
        try expand(text, home: ProcessInfo.processInfo.environment["HOME"])
    }

    static func expand(_ text: String, home: String?) throws(Invalid) -> String {
        guard !text.isEmpty else { throw Invalid(description: "an empty path names no file or directory") }
        guard text.hasPrefix("~") else { return text }
        let rest = text.dropFirst()
        guard rest.isEmpty || rest.hasPrefix("/") else {
            throw Invalid(description: "only ~ and ~/… are expanded (to $HOME); write the path to another user's directory in full")
        }
        guard let home, home.hasPrefix("/") else {
            throw Invalid(description: "~ stands for $HOME, which is not set to a directory; write the path in full")
        }
        if rest.isEmpty { return home }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + rest
    }
}
