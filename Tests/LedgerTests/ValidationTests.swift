import Failures
import Ledger
import Testing

@Suite struct MediaKeyTests {
    @Test(arguments: [Int64(1), 550, 1399, MediaKey.maximumID])
    func validIDs(_ id: Int64) throws {
        let key = try MediaKey(.movie, id)
        #expect(key.id == id)
        #expect(key.mediaType == .movie)
    }

    @Test(arguments: [Int64(0), -1, Int64.min, MediaKey.maximumID + 1, Int64.max])
    func invalidIDs(_ id: Int64) {
        #expect(throws: DomainError.invalidTMDbID(String(id))) { try MediaKey(.tv, id) }
    }

    @Test func maximumIsInt32Max() {
        #expect(MediaKey.maximumID == 2_147_483_647)
    }

    @Test(arguments: [("550", Int64(550)), ("1", 1), ("007", 7), ("2147483647", 2_147_483_647)])
    func parsesDigits(_ text: String, _ id: Int64) throws {
        #expect(try MediaKey(.tv, parsing: text) == MediaKey(.tv, id))
    }

    @Test(arguments: [
        "", " ", "abc", "12a", "a12", " 5", "5 ", "+5", "-5", "5.0", "1e3", "0x1F", "0", "000", "2147483648",
        "99999999999999999999", "٣", "５",
    ])
    func rejectsText(_ text: String) {
        #expect(throws: DomainError.self) { try MediaKey(.movie, parsing: text) }
    }

    @Test func errorsQuoteWhatWasTyped() {
        #expect(throws: DomainError.invalidTMDbID("abc")) { try MediaKey(.movie, parsing: "abc") }
        #expect(throws: DomainError.invalidTMDbID("")) { try MediaKey(.movie, parsing: "") }
        #expect(throws: DomainError.invalidTMDbID("99999999999999999999")) { try MediaKey(.movie, parsing: "99999999999999999999") }
        #expect(throws: DomainError.invalidTMDbID("2147483648")) { try MediaKey(.movie, parsing: "2147483648") }
    }

    @Test func mediaTypeIsPartOfTheIdentity() {
        #expect(movie(1) != tv(1))
        #expect(Set([movie(1), tv(1), movie(1)]).count == 2)
    }

    @Test func ordersByMediaTypeThenID() {
        #expect(movie(1) < movie(2))
        #expect(movie(999) < tv(1))
        #expect([tv(3), movie(20), tv(1), movie(3)].sorted() == [movie(3), movie(20), tv(1), tv(3)])
        #expect(MediaType.movie < MediaType.tv)
        #expect(MediaType.allCases == [.movie, .tv])
    }

    @Test func describes() {
        #expect(movie(550).description == "movie 550")
        #expect(tv(1399).description == "tv 1399")
        #expect(DomainError.invalidTMDbID("x").description.contains("2147483647"))
    }
}

@Suite struct ProfileNameTests {
    @Test(arguments: [
        "A", "Ann Lee", "  padded  ", "Zoë", "李小龍", "😀", String(repeating: "x", count: 100),
        String(repeating: "😀", count: 100), String(repeating: "e\u{301}", count: 100),
        String(repeating: "👨‍👩‍👧", count: 100),
    ])
    func valid(_ text: String) throws {
        #expect(try ProfileName(text).value == text)
        #expect(try ProfileName(text).description == text)
    }

    @Test(arguments: ["", String(repeating: "x", count: 101), String(repeating: "😀", count: 101)])
    func wrongLength(_ text: String) {
        let error = #expect(throws: DomainError.self) { try ProfileName(text) }
        guard case .invalidName(let why)? = error else { Issue.record("expected invalidName, got \(String(describing: error))"); return }
        #expect(why.contains("1 to 100"))
    }

    @Test(arguments: [
        "\t", "a\tb", "a\nb", "a\rb", "a\r\nb", "a\u{0}b", "a\u{1B}[31mred", "del\u{7F}", "next\u{85}line", "\u{9F}",
    ])
    func controlCharacters(_ text: String) {
        let error = #expect(throws: DomainError.self) { try ProfileName(text) }
        guard case .invalidName(let why)? = error else { Issue.record("expected invalidName, got \(String(describing: error))"); return }
        #expect(why.contains("control"))
    }

    @Test(arguments: [" ", "     ", "\u{A0}", " \u{3000} ", "\u{2003}"])
    func onlySpaces(_ text: String) {
        let error = #expect(throws: DomainError.self) { try ProfileName(text) }
        guard case .invalidName(let why)? = error else { Issue.record("expected invalidName, got \(String(describing: error))"); return }
        #expect(why.contains("only spaces"))
    }

    @Test func equalByValue() throws {
        #expect(try ProfileName("Ann") == ProfileName("Ann"))
        #expect(try ProfileName("Ann") != ProfileName("ann"))
    }
}

@Suite struct LanguageTagTests {
    @Test(arguments: ["en", "de-DE", "pt-BR", "en-US", "fr", "fr-CA", "zh-CN", "zh-TW", "cn", "ja-JP", "es-MX", "nb-NO"])
    func valid(_ text: String) throws {
        let tag = try LanguageTag(text)
        #expect(tag.value == text)
        #expect(tag.description == text)
    }

    @Test(arguments: [
        "EN", "En", "eN", "de-de", "de-De", "De-DE", "xx", "xx-US", "zz", "zz-ZZ", "de-XX", "de-DEU", "deu", "d", "",
        "-", "de-", "-DE", "de-DE-x", "de--DE", "de_DE", "de DE", " de", "de ", "ｄｅ", "dé", "de-ÄÖ", "de-D3", "12",
    ])
    func invalid(_ text: String) {
        let error = #expect(throws: DomainError.self) { try LanguageTag(text) }
        guard case .invalidLanguage(let quoted, _)? = error else {
            Issue.record("expected invalidLanguage, got \(String(describing: error))")
            return
        }
        #expect(quoted == text)
    }

    @Test func reasonsSayWhatIsWrong() {
        func reason(_ text: String) -> String? {
            do {
                _ = try LanguageTag(text)
                return nil
            } catch {
                guard case .invalidLanguage(_, let why) = error else { return nil }
                return why
            }
        }
        #expect(reason("EN")?.contains("lowercase") == true)
        #expect(reason("de-de")?.contains("uppercase") == true)
        #expect(reason("zz")?.contains("not a TMDb language") == true)
        #expect(reason("xx")?.contains("not a TMDb language") == true)
        #expect(reason("de-XX")?.contains("not an ISO 3166-1 region") == true)
        #expect(reason("de-DE-x")?.contains("expected a tag like") == true)
    }

    /// A typed word far longer than any language's name is refused without being compared with
    /// each name character by character: a 20,000-character argument once cost `reel settings
    /// language` 20 s of processor time, a million characters would have cost hours.
    @Test func aHugeTypedTagIsRefusedWithoutASuggestion() {
        let huge = String(repeating: "x", count: 1_000_000)
        #expect(throws: DomainError.self) { try LanguageTag(typed: huge) }
        #expect(NameSuggestion.nearest(to: huge, among: ["German", "xxxxxxx"]).isEmpty)
        #expect(NameSuggestion.nearest(to: "Germna", among: ["German", String(repeating: "x", count: 1_000_000)]) == ["German"])
    }

    @Test func defaultIsAmericanEnglish() throws {
        #expect(LanguageTag.default.value == "en-US")
        #expect(try LanguageTag("en-US") == .default)
        #expect(LanguageTag(stored: "en-US") == .default)
        #expect(LanguageTag.default.languageName == "English")
    }

    @Test func languageNames() throws {
        #expect(try LanguageTag("de-DE").languageName == "German")
        #expect(try LanguageTag("de").languageName == "German")
        #expect(try LanguageTag("pt-BR").languageName == "Portuguese")
        #expect(try LanguageTag("cn").languageName == "Cantonese")
        // A stored tag outside the catalogue names itself.
        #expect(LanguageTag(stored: "qq-QQ").languageName == "qq-QQ")
    }

    @Test func storedTagsAreTrustedAsWritten() {
        #expect(LanguageTag(stored: "EN").value == "EN")
        #expect(LanguageTag(stored: "xx-XX") != LanguageTag(stored: "xx-xx"))
    }
}

@Suite struct AccountHandleTests {
    @Test(arguments: [
        "a", "0", "alice", "9lives", "bob.smith_2-x", "a.", "a-", "a_", "a..b", String(repeating: "z", count: 64),
        "0" + String(repeating: "-", count: 63),
    ])
    func valid(_ text: String) throws {
        let handle = try AccountHandle(text)
        #expect(handle.value == text)
        #expect(handle.description == text)
    }

    @Test(arguments: [
        "", "Alice", "aliCe", ".alice", "_alice", "-alice", "a b", " a", "a ", "a/b", "a@b", "a:b", "a+b", "ä", "é", "ａ",
        "a\n", "a\u{0}", String(repeating: "z", count: 65), "..", "😀",
    ])
    func invalid(_ text: String) {
        #expect(throws: DomainError.invalidHandle(text)) { try AccountHandle(text) }
    }

    @Test func defaultHandle() {
        #expect(AccountHandle.default.value == "default")
        #expect(AccountHandle.default == accountHandle("default"))
    }

    @Test func ordersByValue() {
        #expect(accountHandle("ann") < accountHandle("ben"))
        #expect(!(accountHandle("ben") < accountHandle("ann")))
        #expect([accountHandle("c"), accountHandle("a"), accountHandle("b")].sorted().map(\.value) == ["a", "b", "c"])
    }
}

@Suite struct DomainErrorTests {
    @Test func descriptionsAreInWordsAPersonCanActOn() {
        #expect(DomainError.invalidName("too long").description == "invalid name: too long")
        #expect(DomainError.invalidLanguage("EN", "why").description == "'EN' is not a language tag: why")
        #expect(DomainError.invalidHandle("A B").description.hasPrefix("'A B' is not an account handle"))
        #expect(DomainError.invalidPhoto("empty").description == "invalid photo: empty")
        #expect(DomainError.accountDeleted("ann").description == "the account 'ann' is deleted and accepts no commands")
        #expect(
            DomainError.undecodableEvent(type: "favorite-added", version: 1, reason: "r").description
                == "a stored favorite-added v1 event does not decode: r")
        #expect(DomainError.invalidTMDbID("0").description.hasPrefix("'0' is not a TMDb id"))
    }
}
