import Stores
import EventLog
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// A future version 2 of `language-switched` ({"language": "pt", "region": "BR"}) read next to
/// version 1 ({"language": "pt-BR"}) events already in a real ledger, through an upcaster.
@Suite struct UpcastingTests {
    static func decoderWithVersion2() -> EventDecoder {
        var decoder = EventDecoder.standard
        decoder.register(type: "language-switched", currentVersion: 2) { payload in
            guard let language = payload["language"]?.stringValue else { throw DomainError.invalidLanguage("", "missing") }
            let region = payload["region"]?.stringValue
            return .languageSwitched(try LanguageTag(region.map { "\(language)-\($0)" } ?? language))
        }
        decoder.register(
            Upcaster(type: "language-switched", fromVersion: 1) { v1 in
                guard let tag = v1["language"]?.stringValue else { return v1 }
                let parts = tag.split(separator: "-").map(String.init)
                return ["language": .string(parts[0]), "region": parts.count > 1 ? .string(parts[1]) : .null]
            })
        return decoder
    }

    @Test func version1AndVersion2EventsReadAsOneHistory() throws {
        let dir = temporaryDirectory()
        // Today's Reel writes version 1.
        let today = try AccountService.open(at: dir)
        let ann = try AccountHandle("ann")
        _ = try today.execute(.switchLanguage(try LanguageTag("pt-BR")), for: ann)
        let stream = try #require(try today.view(of: ann).stream)
        let version = try today.log.version(of: stream)

        // A later Reel writes version 2 of the same event type.
        let v2 = try ProposedEvent(type: "language-switched", schemaVersion: 2, payload: Array(#"{"language":"de","region":"AT"}"#.utf8))
        _ = try today.log.append([v2], to: stream, expected: .exact(version))

        // Today's decoder refuses version 2 with a clear reason; the later one reads both.
        #expect(throws: ReelError.self) { _ = try today.history(of: ann) }
        let later = try AccountService(log: today.log, decoder: Self.decoderWithVersion2())
        let (_, history) = try later.history(of: ann)
        let languages = history.compactMap { entry -> String? in
            if case .languageSwitched(let tag)? = entry.event { return tag.value }
            return nil
        }
        #expect(languages == ["pt-BR", "de-AT"])
        #expect(history.map(\.schemaVersion) == [1, 1, 2])
        // The v1 event is shown upcast to the current shape.
        #expect(history[1].payload == ["language": "pt", "region": "BR"])
        let rebuilt = try later.rebuildProjections(checkOnly: false)
        #expect(rebuilt.drift.isEmpty)
        #expect(try later.view(of: ann).state.settings.language.value == "de-AT")
        #expect(try later.view(of: ann, asOf: .streamVersion(2)).state.settings.language.value == "pt-BR")
    }
}
