import Foundation
package import ReelTestSupport
package import Testing

extension TerminalSession {
    /// The session, noting where its pane leaves `stty -a` from before and after the program (see
    /// `TerminalAppTests.session`).
    package func remembering(sttyDirectory: String) -> TerminalSession {
        self.sttyDirectory = sttyDirectory
        return self
    }

    /// The terminal's settings after the program are the ones before it.
    package func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let directory = sttyDirectory else { return }
        let before = try String(contentsOfFile: directory + "/before", encoding: .utf8)
        let after = try String(contentsOfFile: directory + "/after", encoding: .utf8)
        #expect(!before.isEmpty && before == after, "stty -a before:\n\(before)\nafter:\n\(after)", sourceLocation: sourceLocation)
    }
}
