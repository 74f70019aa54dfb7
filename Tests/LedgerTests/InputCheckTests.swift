import Ledger
import Testing

/// An event from outside the ledger (an import) passes exactly the checks the commands apply to
/// what a person types: `DomainEvent.checkAsInput` refuses what `--user`, `fav add`,
/// `settings name|photo|language` and `account import` would refuse, and accepts what they accept.
@Suite struct InputCheckTests {
    private func refusal(_ event: DomainEvent) -> String? {
        do {
            try event.checkAsInput()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func whatTheCommandsAcceptIsAccepted() {
        let accepted: [DomainEvent] = [
            .accountOpened(accountHandle("ann")), .favoriteAdded(movie(550)), .favoriteRemoved(tv(1399)),
            .favoriteImported(movie(603), addedAt: baseTime, source: "letterboxd"), .favoriteImported(tv(1), addedAt: 0, source: "reel"),
            .profileNameChanged(profileName("Ann \"Q\" Zoë")), .profilePhotoChanged(photoReference(1)),
            .profilePhotoChanged(photoReference(2, contentType: "image/jpeg", bytes: PhotoFormat.maximumBytes, width: 65_535, height: 1)),
            .profilePhotoChanged(photoReference(3, bytes: 1, width: 2_147_483_647, height: 2_147_483_647)),
            .profilePhotoRemoved, .languageSwitched(languageTag("pt-BR")), .languageSwitched(languageTag("de")), .accountDeleted,
        ]
        for event in accepted { #expect(refusal(event) == nil, "\(event)") }
    }

    /// A language tag read from storage is trusted (`LanguageTag(stored:)`); an import's is not.
    @Test(arguments: ["de\u{1B}[31m", "xx", "de-XX", "DE-de", "en_US", "", "de-DE-x", "\u{202E}ed"])
    func aLanguageTagTheCommandRefusesIsRefused(_ tag: String) {
        let message = refusal(.languageSwitched(LanguageTag(stored: tag)))
        #expect(message?.contains("is not a language tag") == true, "\(tag): \(message ?? "accepted")")
        #expect((try? LanguageTag(tag)) == nil)
    }

    @Test(arguments: ["evil", "Reel", "letterboxd\u{1B}]0;x\u{7}", "", "imdb "])
    func anImportSourceOtherThanReelsIsRefused(_ source: String) {
        let message = refusal(.favoriteImported(movie(550), addedAt: baseTime, source: source))
        #expect(message?.contains("is not a source Reel imports from (imdb, letterboxd, reel, trakt)") == true, "\(message ?? "accepted")")
    }

    @Test func photoReferencesTheCommandCouldNotHaveMadeAreRefused() {
        let cases: [(PhotoReference, String)] = [
            (photoReference(1, bytes: 60_000_000), "states 60000000 bytes; a photo has 1 to 5000000"),
            (photoReference(1, bytes: 0), "states 0 bytes"),
            (photoReference(1, contentType: "image/gif"), "a type other than image/jpeg or image/png"),
            (photoReference(1, contentType: "text/x-sh"), "a type other than image/jpeg or image/png"),
            (photoReference(1, contentType: "image/jpeg", width: 99_999, height: 99_999), "99999x99999 pixels; a JPEG has 1 to 65535"),
            (photoReference(1, width: 0), "0x48 pixels"),
            (photoReference(1, width: 2_147_483_648), "a PNG has 1 to 2147483647"),
            (PhotoReference(sha256: String(repeating: "AB", count: 32), contentType: "image/png", bytes: 9, width: 1, height: 1), "SHA-256"),
            (PhotoReference(sha256: "abc", contentType: "image/png", bytes: 9, width: 1, height: 1), "SHA-256"),
        ]
        for (reference, expected) in cases {
            let message = refusal(.profilePhotoChanged(reference))
            #expect(message?.hasPrefix("invalid photo: ") == true && message?.contains(expected) == true, "\(reference): \(message ?? "accepted")")
        }
    }

    /// The command path goes through the same checks: the decider refuses what an import would.
    @Test func theDeciderAppliesTheSameChecks() {
        #expect(throws: DomainError.invalidImportSource("evil")) {
            try Decider.decide(.importFavorites([ImportedFavorite(key: movie(1), addedAt: 0)], source: "evil"), for: accountHandle("ann"), state: nil)
        }
        #expect(throws: DomainError.self) {
            try Decider.decide(.changePhoto(photoReference(1, bytes: 60_000_000)), for: accountHandle("ann"), state: nil)
        }
        for source in ImportedFavorite.sources {
            #expect(throws: Never.self) {
                try Decider.decide(.importFavorites([ImportedFavorite(key: movie(1), addedAt: 0)], source: source), for: accountHandle("ann"), state: nil)
            }
        }
    }

    /// A PNG can state at most 2^31 - 1 pixels each way (PNG 11.2.2); the photo check reads it so.
    @Test func aPNGStatingMoreThanItsFormatAllowsIsRefusedByContent() throws {
        let bytes = PNG.signature + PNG.ihdr(width: 0x8000_0000, height: 1) + PNG.idat(width: 1, height: 1) + PNG.iend
        #expect(throws: DomainError.invalidPhoto("the PNG states a width or height over 2^31 - 1")) { try PhotoFormat.inspect(bytes) }
        let largest = PNG.signature + PNG.ihdr(width: 0x7FFF_FFFF, height: 1) + PNG.idat(width: 1, height: 1) + PNG.iend
        // Read as 2^31 - 1 wide (not refused as over it), it is then over the pixel limit that every
        // format's header is held to (issue 36).
        #expect(throws: DomainError.invalidPhoto("2147483647×1 pixels is more than the limit of 40,000,000 pixels")) { try PhotoFormat.inspect(largest) }
    }
}
