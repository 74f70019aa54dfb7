import JSONKit
import Ledger
import Testing

/// One event of every type (some types more than once).
let sampleEvents: [DomainEvent] = [
    .accountOpened(accountHandle("ann")),
    .accountOpened(accountHandle("0.b_c-d")),
    .favoriteAdded(movie(550)),
    .favoriteAdded(tv(MediaKey.maximumID)),
    .favoriteRemoved(tv(1399)),
    .favoriteImported(movie(603), addedAt: 1_551_484_800_000_000, source: "letterboxd"),
    .profileNameChanged(profileName("Ann Lee")),
    .profileNameChanged(profileName("Zoë \"Z\" \\ 李 😀")),
    .profilePhotoChanged(photoReference(0xDEAD_BEEF, contentType: "image/jpeg", bytes: 4_999_999, width: 4000, height: 3000)),
    .profilePhotoChanged(photoReference(1)),
    .profilePhotoRemoved,
    .languageSwitched(languageTag("pt-BR")),
    .languageSwitched(languageTag("en")),
    .accountDeleted,
    .accountMovedOut(ShardMove(shard: "eu-2", events: 3, digest: String(repeating: "ab", count: 32))),
    .accountMovedIn(
        ShardMove(
            shard: "eu-1", events: 3, digest: String(repeating: "ab", count: 32),
            closedAt: .init(position: 57, hash: String(repeating: "0c", count: 32)))),
]

/// The undecodable-event error `body` throws, or nil (recorded as an issue).
private func undecodable(
    _ body: () throws(DomainError) -> DomainEvent?, sourceLocation: SourceLocation = #_sourceLocation
) -> (type: String, version: UInt16, reason: String)? {
    do {
        let event = try body()
        Issue.record("expected the event not to decode, got \(String(describing: event))", sourceLocation: sourceLocation)
        return nil
    } catch {
        guard case .undecodableEvent(let type, let version, let reason) = error else {
            Issue.record("expected undecodableEvent, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        return (type, version, reason)
    }
}

@Suite struct DomainEventTests {
    @Test func samplesCoverEveryType() {
        #expect(Set(sampleEvents.map(\.type)) == Set(DomainEvent.currentVersions.keys))
        #expect(DomainEvent.currentVersions.count == 11)
    }

    @Test func everyTypeIsAtVersionOne() {
        for event in sampleEvents { #expect(event.schemaVersion == 1) }
        #expect(DomainEvent.currentVersions.values.allSatisfy { $0 == 1 })
    }

    @Test func payloadsAsWritten() {
        #expect(DomainEvent.accountOpened(accountHandle("ann")).payload.text == #"{"handle":"ann"}"#)
        #expect(DomainEvent.favoriteAdded(movie(550)).payload.text == #"{"id":550,"mediaType":"movie"}"#)
        #expect(DomainEvent.favoriteRemoved(tv(1399)).payload.text == #"{"id":1399,"mediaType":"tv"}"#)
        #expect(DomainEvent.profileNameChanged(profileName("Ann")).payload.text == #"{"name":"Ann"}"#)
        #expect(
            DomainEvent.profilePhotoChanged(photoReference(255, bytes: 10, width: 3, height: 2)).payload.text
                == #"{"photo":{"bytes":10,"contentType":"image/png","height":2,"sha256":""# + String(repeating: "0", count: 62)
                + #"ff","width":3}}"#)
        #expect(DomainEvent.profilePhotoRemoved.payload.text == "{}")
        let digest = String(repeating: "ab", count: 32), hash = String(repeating: "0c", count: 32)
        #expect(
            DomainEvent.accountMovedOut(ShardMove(shard: "eu-2", events: 3, digest: digest)).payload.text
                == #"{"digest":"\#(digest)","events":3,"toShard":"eu-2"}"#)
        #expect(
            DomainEvent.accountMovedIn(ShardMove(shard: "eu-1", events: 3, digest: digest, closedAt: .init(position: 57, hash: hash))).payload.text
                == #"{"digest":"\#(digest)","events":3,"fromShard":"eu-1","movedOutHash":"\#(hash)","movedOutPosition":57}"#)
        #expect(DomainEvent.languageSwitched(languageTag("de-DE")).payload.text == #"{"language":"de-DE"}"#)
        #expect(DomainEvent.accountDeleted.payload.text == "{}")
    }

    @Test func summaries() {
        #expect(DomainEvent.accountOpened(accountHandle("ann")).summary == "opened the account 'ann'")
        #expect(DomainEvent.favoriteAdded(movie(550)).summary == "added movie 550")
        #expect(DomainEvent.favoriteRemoved(tv(1)).summary == "removed tv 1")
        #expect(DomainEvent.profileNameChanged(profileName("Ann")).summary == #"changed name to "Ann""#)
        #expect(DomainEvent.profilePhotoChanged(photoReference(1, bytes: 9, width: 3, height: 2)).summary == "changed photo (PNG, 3x2, 9 bytes)")
        #expect(
            DomainEvent.profilePhotoChanged(photoReference(1, contentType: "image/jpeg", bytes: 9, width: 3, height: 2)).summary
                == "changed photo (JPEG, 3x2, 9 bytes)")
        #expect(DomainEvent.profilePhotoRemoved.summary == "removed photo")
        #expect(DomainEvent.languageSwitched(languageTag("de-DE")).summary == "switched language to de-DE (German)")
        #expect(DomainEvent.accountDeleted.summary == "deleted the account")
    }
}

@Suite struct StandardDecoderTests {
    @Test(arguments: sampleEvents)
    func decodesItsOwnPayload(_ event: DomainEvent) throws {
        let decoder = EventDecoder.standard
        #expect(try decoder.decode(type: event.type, schemaVersion: 1, payload: event.payload.encoded()) == event)
        #expect(try decoder.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload.encoded()) == event)
    }

    @Test func decodesPayloadsWrittenByOthers() throws {
        let decoder = EventDecoder.standard
        // Key order and whitespace do not matter; an integral double is an id.
        #expect(try decoder.decode(type: "favorite-added", schemaVersion: 1, payload: utf8(#" { "mediaType" : "tv" , "id" : 1399 } "#)) == .favoriteAdded(tv(1399)))
        #expect(try decoder.decode(type: "favorite-added", schemaVersion: 1, payload: utf8(#"{"id":550.0,"mediaType":"movie"}"#)) == .favoriteAdded(movie(550)))
        // Stored language tags are trusted as written, even ones the catalogue would refuse today.
        #expect(try decoder.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"xx-XX"}"#)) == .languageSwitched(LanguageTag(stored: "xx-XX")))
    }

    /// A move's payloads name a shard as a map may name one, a positive count and hex digests.
    @Test func malformedMovePayloadsDoNotDecode() {
        let decoder = EventDecoder.standard
        let digest = String(repeating: "ab", count: 32)
        for payload in [
            #"{"toShard":"EU-2","events":3,"digest":"\#(digest)"}"#, #"{"toShard":"eu-2","events":0,"digest":"\#(digest)"}"#,
            #"{"toShard":"eu-2","events":3,"digest":"\#(digest.uppercased())"}"#, #"{"toShard":"eu-2","events":3}"#,
        ] {
            let failure = undecodable { () throws(DomainError) in try decoder.decode(type: "account-moved-out", schemaVersion: 1, payload: utf8(payload)) }
            #expect(failure?.type == "account-moved-out", "\(payload)")
        }
        for payload in [
            #"{"fromShard":"eu-1","events":3,"digest":"\#(digest)","movedOutPosition":0,"movedOutHash":"\#(digest)"}"#,
            #"{"fromShard":"eu-1","events":3,"digest":"\#(digest)","movedOutPosition":5}"#,
            #"{"fromShard":"","events":3,"digest":"\#(digest)","movedOutPosition":5,"movedOutHash":"\#(digest)"}"#,
        ] {
            let failure = undecodable { () throws(DomainError) in try decoder.decode(type: "account-moved-in", schemaVersion: 1, payload: utf8(payload)) }
            #expect(failure?.type == "account-moved-in", "\(payload)")
        }
    }

    @Test func unknownTypesAreSkipped() throws {
        let decoder = EventDecoder.standard
        #expect(try decoder.decode(type: "favorite-rated", schemaVersion: 1, payload: utf8(#"{"stars":5}"#)) == nil)
        #expect(try decoder.decode(type: "Favorite-Added", schemaVersion: 1, payload: utf8(#"{"id":550,"mediaType":"movie"}"#)) == nil)
        // Unknown is unknown at any version and whatever the payload.
        #expect(try decoder.decode(type: "something-new", schemaVersion: 99, payload: utf8("not json")) == nil)
        #expect(try decoder.decode(type: "", schemaVersion: 1, payload: []) == nil)
    }

    @Test func aNewerVersionThanCurrentThrows() throws {
        let payload = DomainEvent.favoriteAdded(movie(550)).payload.encoded()
        let error = try #require(undecodable { () throws(DomainError) in
            try EventDecoder.standard.decode(type: "favorite-added", schemaVersion: 2, payload: payload)
        })
        #expect(error.type == "favorite-added")
        #expect(error.version == 2)
        #expect(error.reason.contains("newer"))
    }

    @Test func anOlderVersionWithoutUpcasterThrows() throws {
        let error = try #require(undecodable { () throws(DomainError) in
            try EventDecoder.standard.decode(type: "account-deleted", schemaVersion: 0, payload: utf8("{}"))
        })
        #expect(error.version == 0)
        #expect(error.reason.contains("no upcaster from version 0"))
    }

    @Test(arguments: ["", "{", "{\"id\":550,", "not json", "{\"id\":550,\"id\":551,\"mediaType\":\"movie\"}", "\u{FEFF}{}"])
    func badJSONThrows(_ text: String) throws {
        let error = try #require(undecodable { () throws(DomainError) in
            try EventDecoder.standard.decode(type: "favorite-added", schemaVersion: 1, payload: utf8(text))
        })
        #expect(error.type == "favorite-added" && error.version == 1)
        #expect(error.reason.contains("invalid JSON at byte"))
    }

    @Test func badJSONThrowsForPayloadlessTypesToo() {
        _ = undecodable { () throws(DomainError) in
            try EventDecoder.standard.decode(type: "account-deleted", schemaVersion: 1, payload: utf8("{oops"))
        }
    }

    @Test(arguments: [
        ("account-opened", "{}"), ("account-opened", #"{"handle":"Not A Handle"}"#), ("account-opened", #"{"handle":7}"#),
        ("favorite-added", "{}"), ("favorite-added", #"{"mediaType":"book","id":1}"#), ("favorite-added", #"{"mediaType":"movie","id":0}"#),
        ("favorite-added", #"{"mediaType":"movie","id":2147483648}"#), ("favorite-added", #"{"mediaType":"movie","id":"550"}"#),
        ("favorite-added", #"{"mediaType":"movie","id":1.5}"#), ("favorite-removed", #"{"mediaType":"tv"}"#),
        ("favorite-added", "[]"), ("profile-name-changed", #"{"name":""}"#), ("profile-name-changed", #"{"name":"a\tb"}"#),
        ("profile-name-changed", #"{"nom":"Ann"}"#), ("profile-photo-changed", "{}"),
        ("profile-photo-changed", #"{"photo":{"sha256":"abc","contentType":"image/png","bytes":1,"width":1,"height":1}}"#),
        ("profile-photo-changed", #"{"photo":{"sha256":"0000000000000000000000000000000000000000000000000000000000000001","bytes":1,"width":1,"height":1}}"#),
        ("language-switched", "{}"), ("language-switched", #"{"language":""}"#), ("language-switched", #"{"language":null}"#),
    ])
    func payloadsThatDoNotFitTheirTypeThrow(_ type: String, _ payload: String) throws {
        let error = try #require(undecodable { () throws(DomainError) in
            try EventDecoder.standard.decode(type: type, schemaVersion: 1, payload: utf8(payload))
        })
        #expect(error.type == type)
        #expect(error.version == 1)
        #expect(!error.reason.isEmpty)
    }

    @Test func domainErrorsInsideAPayloadAreExplained() throws {
        let error = try #require(undecodable { () throws(DomainError) in
            try EventDecoder.standard.decode(type: "favorite-added", schemaVersion: 1, payload: utf8(#"{"mediaType":"movie","id":0}"#))
        })
        #expect(error.reason == DomainError.invalidTMDbID("0").description)
    }
}

// MARK: - Upcasting

/// Version 2 of language-switched splits the tag: {"language":"pt","region":"BR"} (region optional).
private func decodeLanguageV2(_ payload: JSONValue) throws -> DomainEvent {
    guard let language = payload["language"]?.stringValue else { throw DomainError.invalidLanguage("", "no language") }
    if let region = payload["region"]?.stringValue {
        return .languageSwitched(try LanguageTag("\(language)-\(region)"))
    }
    return .languageSwitched(try LanguageTag(language))
}

private let languageV1toV2 = Upcaster(type: "language-switched", fromVersion: 1) { v1 in
    guard let tag = v1["language"]?.stringValue else { throw DomainError.invalidLanguage("", "v1 without language") }
    let parts = tag.split(separator: "-", maxSplits: 1)
    var v2: [String: JSONValue] = ["language": .string(String(parts[0]))]
    if parts.count == 2 { v2["region"] = .string(String(parts[1])) }
    return .object(v2)
}

/// A decoder where language-switched is at version 2, read from v1 through one upcaster.
private func languageV2Decoder() -> EventDecoder {
    var decoder = EventDecoder()
    decoder.register(type: "language-switched", currentVersion: 2, decode: decodeLanguageV2)
    decoder.register(languageV1toV2)
    return decoder
}

@Suite struct UpcasterTests {
    @Test func versionOneAndTwoDecodeToTheSameEvent() throws {
        let decoder = languageV2Decoder()
        let expected = DomainEvent.languageSwitched(languageTag("pt-BR"))
        let v1 = try decoder.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"pt-BR"}"#))
        let v2 = try decoder.decode(type: "language-switched", schemaVersion: 2, payload: utf8(#"{"language":"pt","region":"BR"}"#))
        #expect(v1 == expected)
        #expect(v2 == expected)
        // A tag without a region as well.
        #expect(try decoder.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"fr"}"#)) == .languageSwitched(languageTag("fr")))
    }

    @Test func v1EventsWrittenByTheStandardEncoderStillDecode() throws {
        let decoder = languageV2Decoder()
        for tag in ["en", "de-DE", "pt-BR", "zh-TW"] {
            let event = DomainEvent.languageSwitched(languageTag(tag))
            #expect(try decoder.decode(type: event.type, schemaVersion: 1, payload: event.payload.encoded()) == event)
        }
    }

    @Test func otherTypesAreUnaffected() throws {
        let decoder = languageV2Decoder()
        for event in sampleEvents where event.type != "language-switched" {
            #expect(try decoder.decode(type: event.type, schemaVersion: 1, payload: event.payload.encoded()) == event)
        }
    }

    @Test func registeringOnACopyLeavesTheStandardDecoderAlone() throws {
        _ = languageV2Decoder()
        var copy = EventDecoder.standard
        copy.register(type: "language-switched", currentVersion: 2, decode: decodeLanguageV2)
        let v2 = utf8(#"{"language":"pt","region":"BR"}"#)
        #expect(try copy.decode(type: "language-switched", schemaVersion: 2, payload: v2) == .languageSwitched(languageTag("pt-BR")))
        _ = undecodable { () throws(DomainError) in try EventDecoder.standard.decode(type: "language-switched", schemaVersion: 2, payload: v2) }
        #expect(try EventDecoder.standard.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"pt-BR"}"#)) == .languageSwitched(languageTag("pt-BR")))
    }

    @Test func aMissingUpcasterStepThrows() throws {
        // Without any upcaster, a v1 event cannot reach v2.
        var noUpcaster = EventDecoder()
        noUpcaster.register(type: "language-switched", currentVersion: 2, decode: decodeLanguageV2)
        let v1 = utf8(#"{"language":"pt-BR"}"#)
        let error = try #require(undecodable { () throws(DomainError) in
            try noUpcaster.decode(type: "language-switched", schemaVersion: 1, payload: v1)
        })
        #expect(error.type == "language-switched" && error.version == 1)
        #expect(error.reason.contains("no upcaster from version 1"))

        // With v1→v2 but the type now at v3, the v2→v3 step is missing.
        var gap = languageV2Decoder()
        gap.register(type: "language-switched", currentVersion: 3, decode: decodeLanguageV2)
        let gapError = try #require(undecodable { () throws(DomainError) in
            try gap.decode(type: "language-switched", schemaVersion: 1, payload: v1)
        })
        #expect(gapError.version == 1)
        #expect(gapError.reason.contains("no upcaster from version 2"))
        // Version 3 payloads need no upcaster.
        #expect(try gap.decode(type: "language-switched", schemaVersion: 3, payload: utf8(#"{"language":"pt","region":"BR"}"#)) == .languageSwitched(languageTag("pt-BR")))
    }

    @Test func upcastersChainInOrder() throws {
        var decoder = EventDecoder()
        decoder.register(type: "language-switched", currentVersion: 3) { v3 in
            guard let inner = v3["tag"] else { throw DomainError.invalidLanguage("", "no tag") }
            return try decodeLanguageV2(inner)
        }
        // Registered out of order on purpose.
        decoder.register(Upcaster(type: "language-switched", fromVersion: 2) { v2 in ["tag": v2] })
        decoder.register(languageV1toV2)
        let expected = DomainEvent.languageSwitched(languageTag("de-DE"))
        #expect(try decoder.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"de-DE"}"#)) == expected)
        #expect(try decoder.decode(type: "language-switched", schemaVersion: 2, payload: utf8(#"{"language":"de","region":"DE"}"#)) == expected)
        #expect(try decoder.decode(type: "language-switched", schemaVersion: 3, payload: utf8(#"{"tag":{"language":"de","region":"DE"}}"#)) == expected)
    }

    @Test func aLaterRegistrationReplacesAnUpcaster() throws {
        var decoder = languageV2Decoder()
        decoder.register(Upcaster(type: "language-switched", fromVersion: 1) { _ in ["language": "fr"] })
        #expect(try decoder.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"pt-BR"}"#)) == .languageSwitched(languageTag("fr")))
    }

    @Test func anUpcasterForAnotherTypeDoesNotApply() throws {
        var decoder = EventDecoder()
        decoder.register(type: "language-switched", currentVersion: 2, decode: decodeLanguageV2)
        decoder.register(Upcaster(type: "profile-name-changed", fromVersion: 1) { $0 })
        _ = undecodable { () throws(DomainError) in
            try decoder.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"pt-BR"}"#))
        }
    }

    @Test func aFailingUpcasterThrowsUndecodable() throws {
        struct Refused: Error {}
        var decoder = EventDecoder()
        decoder.register(type: "language-switched", currentVersion: 2, decode: decodeLanguageV2)
        decoder.register(Upcaster(type: "language-switched", fromVersion: 1) { _ in throw Refused() })
        let error = try #require(undecodable { () throws(DomainError) in
            try decoder.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"pt-BR"}"#))
        })
        #expect(error.type == "language-switched" && error.version == 1)
    }

    @Test func errorsOfACustomDecoderAreWrappedWithTheStoredVersion() throws {
        let decoder = languageV2Decoder()
        // The v1 tag upcasts fine but the v2 decoder refuses the resulting tag.
        let error = try #require(undecodable { () throws(DomainError) in
            try decoder.decode(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"zz-ZZ"}"#))
        })
        #expect(error.type == "language-switched")
        #expect(error.version == 1)
        let refusal: String
        do {
            _ = try LanguageTag("zz-ZZ")
            refusal = "accepted"
        } catch {
            refusal = error.description
        }
        #expect(error.reason == refusal)
        #expect(error.reason.contains("'zz' is not a TMDb language"))
    }

    @Test func anUndecodableErrorFromACustomDecoderPassesThroughUnchanged() throws {
        var decoder = EventDecoder()
        decoder.register(type: "favorite-added", currentVersion: 1) { _ in
            throw DomainError.undecodableEvent(type: "inner", version: 42, reason: "as thrown")
        }
        let error = try #require(undecodable { () throws(DomainError) in
            try decoder.decode(type: "favorite-added", schemaVersion: 1, payload: utf8("{}"))
        })
        #expect(error.type == "inner" && error.version == 42 && error.reason == "as thrown")
    }

    @Test func decodeUpcastingAlsoReturnsTheCurrentShapeOfThePayload() throws {
        let decoder = languageV2Decoder()
        let fromV1 = try #require(try decoder.decodeUpcasting(type: "language-switched", schemaVersion: 1, payload: utf8(#"{"language":"pt-BR"}"#)))
        #expect(fromV1.event == .languageSwitched(languageTag("pt-BR")))
        #expect(fromV1.payload == ["language": "pt", "region": "BR"])
        let fromV2 = try #require(try decoder.decodeUpcasting(type: "language-switched", schemaVersion: 2, payload: utf8(#"{"region":"BR","language":"pt"}"#)))
        #expect(fromV2.event == fromV1.event && fromV2.payload == fromV1.payload)
        #expect(try decoder.decodeUpcasting(type: "no-such-type", schemaVersion: 1, payload: utf8("{}")) == nil)
        _ = undecodable { () throws(DomainError) in
            try decoder.decodeUpcasting(type: "language-switched", schemaVersion: 3, payload: utf8("{}"))?.event
        }
    }

    @Test(arguments: sampleEvents)
    func decodeUpcastingOfACurrentEventReturnsItsPayloadAsWritten(_ event: DomainEvent) throws {
        let decoded = try #require(try EventDecoder.standard.decodeUpcasting(type: event.type, schemaVersion: 1, payload: event.payload.encoded()))
        #expect(decoded.event == event)
        #expect(decoded.payload == event.payload)
    }

    @Test func registeringANewTypeMakesItKnown() throws {
        var decoder = EventDecoder()
        #expect(try decoder.decode(type: "favorite-starred", schemaVersion: 1, payload: utf8(#"{"id":5}"#)) == nil)
        decoder.register(type: "favorite-starred", currentVersion: 1) { payload in
            guard let id = payload["id"]?.integerValue else { throw DomainError.invalidTMDbID("?") }
            return .favoriteAdded(try MediaKey(.movie, id))
        }
        #expect(try decoder.decode(type: "favorite-starred", schemaVersion: 1, payload: utf8(#"{"id":5}"#)) == .favoriteAdded(movie(5)))
    }
}
