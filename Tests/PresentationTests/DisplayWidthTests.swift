import Presentation
import Testing

/// `DisplayWidth`: the columns a terminal gives text, by East Asian Width, with emoji sequences
/// as one character; cutting and wrapping by columns.
@Suite struct DisplayWidthTests {
    @Test func asciiAndLatinTakeOneColumnEach() {
        #expect(DisplayWidth.columns("") == 0)
        #expect(DisplayWidth.columns("Fight Club") == 10)
        #expect(DisplayWidth.columns("Amélie") == 6)  // precomposed é
        #expect(DisplayWidth.columns("Ærø ŒŸ ʃ") == 8)
        #expect(DisplayWidth.columns("Ελλάδα Москва") == 13)  // Greek and Cyrillic: ambiguous, counted as 1
        #expect(DisplayWidth.columns("…★–") == 3)
    }

    @Test func eastAsianWideAndFullwidthTakeTwo() {
        #expect(DisplayWidth.columns("千と千尋の神隠し") == 16)  // ideographs and hiragana
        #expect(DisplayWidth.columns("カウボーイビバップ") == 18)  // katakana
        #expect(DisplayWidth.columns("기생충") == 6)  // Hangul syllables
        #expect(DisplayWidth.columns("올드보이 (2003)") == 15)
        #expect(DisplayWidth.columns("ＡＢＣ１２３") == 12)  // fullwidth forms
        #expect(DisplayWidth.columns("　") == 2)  // ideographic space
        #expect(DisplayWidth.columns("ｶﾀｶﾅ") == 4)  // halfwidth katakana stay narrow
        #expect(DisplayWidth.columns("𠮷野家") == 6)  // an ideograph beyond the BMP
        #expect(DisplayWidth.columns("\u{1100}\u{1161}\u{11A8}") == 2)  // conjoining jamo: one syllable
    }

    @Test func emojiTakeTwoAsOneCharacter() {
        #expect(DisplayWidth.columns("🎬") == 2)
        #expect(DisplayWidth.columns("🍿 Night") == 8)
        #expect(DisplayWidth.columns("❤") == 1)  // text presentation by default
        #expect(DisplayWidth.columns("❤\u{FE0F}") == 2)  // VS16 asks for emoji presentation
        #expect(DisplayWidth.columns("🎬\u{FE0E}") == 1)  // VS15 asks for text
        #expect(DisplayWidth.columns("👨\u{200D}👩\u{200D}👧\u{200D}👦") == 2)  // a ZWJ family
        #expect(DisplayWidth.columns("🏳\u{FE0F}\u{200D}🌈") == 2)
        #expect(DisplayWidth.columns("🇯🇵🇰🇷") == 4)  // two flags
        #expect(DisplayWidth.columns("👍🏽") == 2)  // a skin tone
        #expect(DisplayWidth.columns("☝🏽") == 2)
        #expect(DisplayWidth.columns("1\u{FE0F}\u{20E3}") == 2)  // a keycap
        #expect(DisplayWidth.columns("🦖") == 2)
    }

    @Test func combiningMarksAndInvisiblesTakeNone() {
        #expect(DisplayWidth.columns("e\u{301}") == 1)
        #expect(DisplayWidth.columns("Ame\u{301}lie") == 6)
        #expect(DisplayWidth.columns("a\u{301}\u{302}\u{303}") == 1)
        #expect(DisplayWidth.columns("\u{301}") == 0)  // a mark with nothing to sit on
        #expect(DisplayWidth.columns("a\u{200B}b") == 2)  // zero-width space
        #expect(DisplayWidth.columns("a\u{200D}b") == 2)
        #expect(DisplayWidth.columns("soft\u{AD}hyphen") == 10)
        #expect(DisplayWidth.columns("x\u{FE0F}") == 1)
        #expect(DisplayWidth.columns("a\u{1B}b\u{9B}") == 2)  // controls
    }

    @Test func rightToLeftLettersTakeOneEach() {
        #expect(DisplayWidth.columns("שלום") == 4)
        #expect(DisplayWidth.columns("ואלס עם באשיר") == 13)
        #expect(DisplayWidth.columns("الرسالة") == 7)
        #expect(DisplayWidth.columns("مُحَمَّد") == 4)  // harakat are marks
        #expect(DisplayWidth.columns("می\u{200C}خواهم") == 7)  // ZWNJ
    }

    @Test func truncationNeverSplitsAWideCharacterNorExceedsTheWidth() {
        #expect(DisplayWidth.truncate("Fight Club", to: 20) == "Fight Club")
        #expect(DisplayWidth.truncate("Fight Club", to: 10) == "Fight Club")
        #expect(DisplayWidth.truncate("Fight Club", to: 9) == "Fight Cl…")
        #expect(DisplayWidth.truncate("Fight Club", to: 7) == "Fight…")  // no space before the ellipsis
        #expect(DisplayWidth.truncate("千と千尋の神隠し", to: 8) == "千と千…")  // 尋 would straddle: 7 columns
        #expect(DisplayWidth.truncate("千と千尋の神隠し", to: 9) == "千と千尋…")
        #expect(DisplayWidth.truncate("🇯🇵🇰🇷🇫🇷", to: 5) == "🇯🇵🇰🇷…")
        #expect(DisplayWidth.truncate("🇯🇵🇰🇷🇫🇷", to: 4) == "🇯🇵…")
        #expect(DisplayWidth.truncate("Ame\u{301}lie Poulain", to: 6) == "Ame\u{301}li…")
        #expect(DisplayWidth.truncate("千と千尋", to: 1) == "")
        #expect(DisplayWidth.truncate("abc", to: 1) == "a")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
        let titles = ["千と千尋の神隠し", "기생충 Parasite", "👨\u{200D}👩\u{200D}👧 Family 🎬🍿", "Ame\u{301}lie", "ואלס עם באשיר", "ａｂｃ x"]
        for title in titles {
            for width in 1...20 {
                let cut = DisplayWidth.truncate(title, to: width)
                #expect(DisplayWidth.columns(cut) <= width, "\(title) to \(width): \(cut)")
                #expect(DisplayWidth.columns(cut) >= width - 2 || cut == title, "\(title) to \(width): \(cut) wastes room")
                // Whole characters only: the cut is the title's start, then perhaps the ellipsis.
                #expect(title.hasPrefix(cut.hasSuffix("…") ? String(cut.dropLast()) : cut), "\(title) to \(width): \(cut)")
            }
        }
    }

    @Test func wrappingBreaksAtSpacesByColumns() {
        #expect(DisplayWidth.wrap("the good the bad and the ugly", width: 12) == ["the good the", "bad and the", "ugly"])
        #expect(DisplayWidth.wrap("千と千尋 の神隠し 기생충", width: 10) == ["千と千尋", "の神隠し", "기생충"])
        #expect(DisplayWidth.wrap("", width: 10) == [])
        // A long word stays whole unless asked, or unless it is CJK text, which breaks anywhere.
        #expect(DisplayWidth.wrap("see https://www.themoviedb.org/movie/550", width: 12) == ["see", "https://www.themoviedb.org/movie/550"])
        #expect(DisplayWidth.wrap("千と千尋の神隠し", width: 5) == ["千と", "千尋", "の神", "隠し"])
        // Asked to break, a path breaks after a slash where one fits.
        #expect(
            DisplayWidth.wrap("at /home/someone/.local/share/reel", width: 12, breakingWords: true)
                == ["at", "/home/", "someone/", ".local/", "share/reel"])
        #expect(DisplayWidth.wrap("abcdefghij", width: 4, breakingWords: true) == ["abcd", "efgh", "ij"])
        for width in 2...30 {
            for line in DisplayWidth.wrap("千と千尋の神隠し 🎬🍿 Ame\u{301}lie /a/very/long/path/to/a/ledger", width: width, breakingWords: true) {
                #expect(DisplayWidth.columns(line) <= width, "\(width): \(line)")
            }
        }
    }

    @Test func truncatingAtAWordLeavesAWordTheEdgeWouldSplitOutWhole() {
        let text = "Couldn't reach TMDb: it answered 503 (unavailable)"
        #expect(DisplayWidth.truncateAtWord(text, to: 60) == text)
        #expect(DisplayWidth.truncateAtWord(text, to: 30) == "Couldn't reach TMDb: it…")
        #expect(DisplayWidth.truncateAtWord(text, to: 24) == "Couldn't reach TMDb: it…", "the edge falls after a whole word")
        #expect(DisplayWidth.truncateAtWord("unbreakable-word-here", to: 10) == DisplayWidth.truncate("unbreakable-word-here", to: 10))
        #expect(DisplayWidth.truncateAtWord("日本語 の 映画 タイトル", to: 9) == "日本語…")
    }
}
