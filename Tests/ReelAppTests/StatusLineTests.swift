import Foundation
import Testing

@testable import ReelApp

/// The status line: a failure in words, the key that helps first, never half a word.
@Suite struct StatusLineTests {
    @Test func aFailureNamesRFirstAndIsCutAtTheEndOfAWord() {
        var model = AppUpdateTests.started()
        model.movies.error = "Couldn't reach TMDb: it answered 503 (unavailable)"
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

    @Test func aMessageAboutOneScreenIsClearedWhenAnotherShows() {
        var model = AppUpdateTests.started()
        model.status.note = "added movie 1 Movie 1 (2000) · u undoes"
        model.status.lastError = "Couldn't reach TMDb: it answered 503 (unavailable)"
        (model, _) = AppUpdateTests.type(model, .enter)
        #expect(model.screens.count == 1 && model.status.note == nil && model.status.lastError == nil)
        // A key that says something as it changes the screen keeps its own words.
        model.status.note = "stale"
        (model, _) = AppUpdateTests.type(model, .escape, .character("h"))
        #expect(model.status.note?.hasPrefix("h does nothing here") == true)
        (model, _) = AppUpdateTests.type(model, .character("2"))
        #expect(model.status.note == nil, "a tab switch clears it")
    }

    @Test func rIsOfferedOnlyWhereSomethingFailedToLoad() {
        var model = AppUpdateTests.started()
        model.status.lastError = "the handle typed does not match 'ann'; nothing deleted"
        let line = AppView.draw(model).lines()[23]
        #expect(line.contains(" · error: the handle typed does not match 'ann';") && !line.contains("r retries"), "\(line)")
    }
}
