import ArgumentParser
import Presentation
import Reel

extension ValidationError {
    /// A value the domain refused (`DomainError`: a handle, a TMDb id, a name, a language tag),
    /// reported by ArgumentParser from `validate()` like any usage mistake (exit 64) in the
    /// domain's own words. Made one line here: `ReelCommand.main` shows only the first line of a
    /// parse error, and the refused text is the person's, so it may hold a newline or an escape.
    init(refusing error: any Error) {
        self.init(TerminalText.field("\(error)"))
    }
}
