import Reel
import ReelApp
import Testing

/// The Saved and Settings tabs as text: headings, the line under them, wide characters lined up
/// and catalog text made terminal-safe.
@Suite struct SavedViewTests {
    @Test func theSavedTabAt80x24() {
        var model = AppUpdateTests.type(SavedUpdateTests.loaded(), .character("r")).0
        let spirited = TitleRow(key: try! MediaKey(.movie, 129), title: "千と千尋の神隠し", year: 2001, genres: ["Animation"], rating: 8.5, saved: true)
        let hostile = TitleRow(key: try! MediaKey(.movie, 1), title: "Bad\u{1B}[2JTitle", year: 2020, genres: [], rating: nil, saved: true)
        model = AppUpdate.update(model, .saved(.loaded(SavedRequest(), rows: [SavedUpdateTests.club, spirited, hostile], total: 3, language: "en", account: "ann"))).0
        model.status.language = "en"
        let lines = AppView.draw(model).lines()
        let expected = [
            " 1 Movies   2 Series   3 Search   4 Saved   5 Settings                   ? help",
            " Saved · in the order saved                                             3 saved",
            " s sort  S reverse  f genres  / filter  x remove  u undo  [ ] time travel",
            " t go to  h history",
            "    Title                                 Kind    Released    Genres     Rating",
            "› ★ Fight Club                            movie   1999        Drama         8.4",
            "  ★ 千と千尋の神隠し                      movie   2001        Animation     8.5",
            "  ★ Bad�[2JTitle                          movie   2020                        –",
        ] + Array(repeating: "", count: 15) + [
            " ann · en · …                                                            q quit",
        ]
        #expect(lines == expected, "\n\(lines.joined(separator: "\n"))")
    }

    @Test func theHeadingSaysTheOrderGenreAndFilterAndTheCount() {
        var model = SavedUpdateTests.loaded()
        model.saved.request = SavedRequest(order: .rating, descending: true, genres: ["Drama"])
        model = AppUpdateTests.type(model, .character("/"), .character("b"), .character("r")).0
        let lines = AppView.draw(model).lines()
        #expect(lines[1] == " Saved · by rating, best first · Drama · “br”                      1 of 3 saved")
        #expect(lines[2] == " / br▏")
    }

    @Test func theSettingsTabShowsTheRowsAndAboutWithTMDbsAttribution() {
        let lines = AppView.draw(SettingsUpdateTests.loaded()).lines()
        #expect(lines[1] == " Settings")
        #expect(lines[3] == "› Name        Ann")
        #expect(lines[4] == "  Photo       (none)")
        #expect(lines[5] == "  Language    en (English)")
        #expect(lines[6] == "  Account     ann   (2 open in this data directory)")
        #expect(lines[7] == "  Delete      delete the account 'ann' for good…")
        #expect(lines[11] == " About")
        #expect(lines[12] == "  data directory  /data")
        #expect(lines[16] == "  Movie and series data: The Movie Database (TMDB), https://www.themoviedb.org")
        #expect(lines[17] == "  This product uses the TMDB API but is not endorsed or certified by TMDB.")
    }

    @Test func theLanguagePickerListsTheLanguages() {
        let model = AppUpdateTests.type(SettingsUpdateTests.loaded(), .character("j"), .character("j"), .enter).0
        let lines = AppView.draw(model).lines()
        #expect(lines[11] == "  Language · type to narrow: ▏")
        #expect(lines[12] == "    de  German" && lines[13] == "  › en  English" && lines[14] == "    fr  French", "\(lines)")
    }

    @Test func theHelpListsTheSavedAndSettingsKeysAndFitsAt80x24() {
        var model = SavedUpdateTests.loaded()
        model.showsHelp = true
        let lines = AppView.draw(model).lines()
        let text = lines.joined(separator: "\n")
        // The help lists the keys of the tab it was asked on, after those that work everywhere.
        for key in ["s  S", "f                genres (space chooses, a all or any)", "c                no genres, no filter", "/", "x", "remove the title under the cursor", "undo the last save or remove", "[  ]  t", "h", "esc: back to now", "j ↓  k ↑", "quit, always"] {
            #expect(text.contains(key), "\(key) in\n\(text)")
        }
        #expect(lines.contains { $0.contains("└") }, "the box closes on screen: \(text)")
        model.tab = .settings
        let settings = AppView.draw(model).lines()
        #expect(settings.joined(separator: "\n").contains("change: name, photo, language, account, delete"), "\(settings)")
        #expect(!settings.joined(separator: "\n").contains("undo the last add"), "Saved's keys are not Settings'")
        #expect(settings.contains { $0.contains("└") })
    }
}
