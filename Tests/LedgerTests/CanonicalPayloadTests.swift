import Foundation
import JSONKit
@testable import Ledger
import Testing

/// `CanonicalPayload` reads the commonest payloads straight from their bytes; it must read exactly
/// what the general decoder reads, and give way to it for anything else.
@Suite("Canonical payloads")
struct CanonicalPayloadTests {
    private func fast(_ type: String, _ payload: String) -> DomainEvent? {
        Array(type.utf8).withUnsafeBytes { type in
            Array(payload.utf8).withUnsafeBytes { CanonicalPayload.event(typeBytes: type, payload: $0) }
        }
    }

    private func viaBytes(_ decoder: EventDecoder, _ type: String, version: UInt16 = 1, _ payload: String) throws -> DomainEvent? {
        try Array(type.utf8).withUnsafeBytes { type in
            try Array(payload.utf8).withUnsafeBytes { try decoder.decode(typeBytes: type, schemaVersion: version, payload: $0) }
        }
    }

    @Test("favorites as Reel writes them are read directly, and equal what the general decoder reads")
    func writtenFavoritesReadTheSame() throws {
        let keys = [try MediaKey(.movie, 1), try MediaKey(.tv, 1399), try MediaKey(.movie, MediaKey.maximumID)]
        for key in keys {
            for event in [DomainEvent.favoriteAdded(key), .favoriteRemoved(key)] {
                let payload = String(decoding: event.payload.encoded(), as: UTF8.self)
                #expect(fast(event.type, payload) == event, "\(payload)")
                #expect(try EventDecoder.standard.decode(type: event.type, schemaVersion: 1, payload: Array(payload.utf8)) == event)
            }
        }
    }

    @Test("payload bytes written directly are the JSON tree's canonical bytes")
    func writtenBytesEqualTheTree() throws {
        let keys = [try MediaKey(.movie, 1), try MediaKey(.tv, 1399), try MediaKey(.movie, MediaKey.maximumID)]
        var events: [DomainEvent] = [
            .accountOpened(try AccountHandle("ann")), .profileNameChanged(try ProfileName("Ann \"Q\" \\ Zoë")), .profilePhotoRemoved,
            .languageSwitched(try LanguageTag("pt-BR")), .accountDeleted,
        ]
        for key in keys {
            events += [.favoriteAdded(key), .favoriteRemoved(key)]
            for source in ["reel", "letterboxd", "a \"quoted\" \\ source\n\t\u{01}é"] {
                events.append(.favoriteImported(key, addedAt: 1_700_000_000_123_456, source: source))
                events.append(.favoriteImported(key, addedAt: -62_135_596_800_000_000, source: source))
            }
        }
        for event in events {
            #expect(CanonicalPayload.bytes(of: event) == event.payload.encoded(), "\(event)")
        }
    }

    @Test("anything but the exact canonical bytes goes to the general path", arguments: [
        #"{"id": 603,"mediaType":"movie"}"#, #"{"mediaType":"movie","id":603}"#, #"{"id":0603,"mediaType":"movie"}"#,
        #"{"id":603,"mediaType":"movie"} "#, #"{"id":603,"mediaType":"film"}"#, #"{"id":603,"mediaType":"tv","x":1}"#,
        #"{"id":-603,"mediaType":"movie"}"#, #"{"id":603.0,"mediaType":"movie"}"#, #"{"id":99999999999999999999,"mediaType":"tv"}"#,
        #"{"id":2147483648,"mediaType":"tv"}"#, #"{"id":,"mediaType":"tv"}"#, #"{"id":603,"mediaType":"movi"#, "", "{",
    ])
    func otherBytesAreLeftToTheGeneralPath(payload: String) {
        #expect(fast("favorite-added", payload) == nil)
    }

    @Test("other event types are left to the general path")
    func otherTypes() {
        #expect(fast("favorite-imported", #"{"id":603,"mediaType":"movie"}"#) == nil)
        #expect(fast("favorite-added-x", #"{"id":603,"mediaType":"movie"}"#) == nil)
        #expect(fast("account-opened", #"{"handle":"ada"}"#) == nil)
    }

    @Test("decoding from bytes agrees with the general decoder, errors included")
    func bytesAgreeWithGeneralPath() throws {
        let decoder = EventDecoder.standard
        #expect(try viaBytes(decoder, "favorite-added", #"{"mediaType":"tv","id":7}"#) == .favoriteAdded(try MediaKey(.tv, 7)))
        #expect(try viaBytes(decoder, "account-opened", #"{"handle":"ada"}"#) == .accountOpened(try AccountHandle("ada")))
        #expect(try viaBytes(decoder, "something-new", "{}") == nil)
        #expect(throws: DomainError.self) { try viaBytes(decoder, "favorite-added", #"{"id":0,"mediaType":"tv"}"#) }
        #expect(throws: DomainError.self) { try viaBytes(decoder, "favorite-added", version: 2, #"{"id":7,"mediaType":"tv"}"#) }
    }

    @Test("a decoder with an upcaster or a decoder of its own does not take the shortcut")
    func registrationsTurnTheShortcutOff() throws {
        var decoder = EventDecoder()
        decoder.register(type: "favorite-added", currentVersion: 1) { _ in .favoriteAdded(try MediaKey(.movie, 42)) }
        #expect(try viaBytes(decoder, "favorite-added", #"{"id":7,"mediaType":"tv"}"#) == .favoriteAdded(try MediaKey(.movie, 42)))
    }
}
