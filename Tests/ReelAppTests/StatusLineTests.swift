import Foundation
import Testing

@testable import ReelApp

/// The status line: a failure in words, the key that helps first, never half a word.
@Suite struct StatusLineTests {
    @Test func aFailureNamesRFirstAndIsCutAtTheEndOfAWord() {
        var model = AppUpdateTests.started()
        model.status.lastError = "Couldn't reach TMDb: it answered 503 (unavailable); showing nothing cached for this list yet"
        let line = AppView.draw(model).lines()[23]
        #expect(line.hasPrefix(" ann · en · ") && line.contains("error (r retries): Couldn't reach TMDb: it answered"), "\(line)")
        #expect(line.hasSuffix("q quit"), "\(line)")
        // Cut after a whole word, with an ellipsis.
        let shown = (line.components(separatedBy: "error (r retries): ").last ?? "").components(separatedBy: "…").first ?? ""
        #expect(line.contains("answered…"), "\(line)")
        let words = Set(model.status.lastError!.split(separator: " ").map(String.init))
        #expect(shown.split(separator: " ").allSatisfy { words.contains(String($0)) }, "every word shown whole: \(line)")
    }
}
