import Stores
import Crypto
import EventLog
import Foundation
import JSONKit
import Ledger
import ReelTestSupport
import Testing

@testable import Reel

/// An import reads each history element of a Reel export in place when it is exactly as Reel
/// writes it, and parses it as JSON otherwise: both must give the same fields, and a document
/// written differently (members reordered, spaces, escapes) must verify to the same account.
@Suite struct ExportReadingTests {
    static func export() throws -> [UInt8] {
        let service = try AccountService.open(at: temporaryDirectory())
        let ann = try AccountHandle("ann")
        _ = try service.execute(.rename(try ProfileName("Ann \"Quote\" Ünïcode")), for: ann)
        _ = try service.execute(.addFavorites((1...40).map { try! MediaKey($0 % 3 == 0 ? .tv : .movie, Int64($0 * 7)) }), for: ann)
        _ = try service.execute(.removeFavorites([try MediaKey(.movie, 7), try MediaKey(.tv, 21)]), for: ann)
        _ = try service.execute(.switchLanguage(try LanguageTag("pt-BR")), for: ann)
        return try service.export(of: ann).document(generator: "test")
    }

    private func fields(_ e: ExportedEntry) -> [String] {
        let payload: [UInt8]
        switch e.payload {
        case .canonical(let bytes)?: payload = Array(bytes)
        case .parsed(let value)?: payload = value.encoded()
        case nil: payload = []
        }
        let texts = [e.eventID, e.type, e.recordedAt, e.payloadSha256, e.previousHash, e.hash, e.envelope].map { $0.map { String(decoding: $0, as: UTF8.self) } ?? "-" }
        return [e.position, e.streamVersion, e.schemaVersion].map { $0.map(String.init) ?? "-" } + texts + [String(decoding: payload, as: UTF8.self)]
    }

    @Test func everyElementReelWritesIsReadInPlaceAsJSONWouldReadIt() throws {
        let bytes = try Self.export()
        let (_, ranges) = try JSONValue.parse(bytes, deferringElementsOf: "history")
        let history = try #require(ranges)
        #expect(history.count == 45)
        var canonicalPayloads = 0
        for range in history {
            let fast = try #require(ExportedEntry.read(bytes, range), "\(String(decoding: bytes[range], as: UTF8.self))")
            let general = try #require(ExportedEntry(json: try JSONValue(parsing: bytes[range])))
            #expect(fields(fast) == fields(general))
            if case .canonical? = fast.payload { canonicalPayloads += 1 }
        }
        #expect(canonicalPayloads == 42)  // the adds and removes; the open, rename and language are parsed
    }

    /// The same document, every history element rewritten by a general JSON writer: members in
    /// another order, spaces after the separators, or a character escaped.
    @Test(arguments: ["sorted", "spaced", "escaped"])
    func aDocumentWrittenDifferentlyVerifiesToTheSameAccount(_ style: String) throws {
        let bytes = try Self.export()
        let original = try ExportDocument(parsing: bytes)
        let (_, ranges) = try JSONValue.parse(bytes, deferringElementsOf: "history")
        var rewritten: [UInt8] = []
        var copied = 0
        for range in try #require(ranges) {
            rewritten += bytes[copied..<range.lowerBound]
            var element: [UInt8]
            switch style {
            case "sorted": element = try JSONValue(parsing: bytes[range]).encoded()
            case "spaced": element = Array(String(decoding: bytes[range], as: UTF8.self).replacingOccurrences(of: "\",\"", with: "\", \"").utf8)
            default:
                // The type's first letter escaped ("\u0066avorite-added"): the in-place reader must give way.
                element = Array(bytes[range])
                let marker = Array(#""type":""#.utf8)
                let at = try #require((0...(element.count - marker.count)).first { Array(element[$0..<($0 + marker.count)]) == marker }) + marker.count
                element.replaceSubrange(at...at, with: Array(String(format: "\\u%04x", element[at]).utf8))
            }
            #expect(ExportedEntry.read(element, 0..<element.count) == nil)
            rewritten += element
            copied = range.upperBound
        }
        rewritten += bytes[copied...]
        let document = try ExportDocument(parsing: rewritten)
        #expect(document.state == original.state)
        #expect(document.events.map(\.eventID) == original.events.map(\.eventID))
        #expect(document.events.map(\.event) == original.events.map(\.event))
    }
}

/// `CanonicalBase64` accepts exactly the texts Foundation decodes and encodes back unchanged.
@Suite struct CanonicalBase64Tests {
    /// The rule an export's envelopes were held to before: decodes, and encodes back the same.
    private func foundationAccepts(_ text: String) -> [UInt8]? {
        guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else { return nil }
        return Array(data)
    }

    @Test func itDecodesWhatFoundationEncodesAndRefusesWhatFoundationWouldNot() {
        var random = SplitMix64(seed: 7)
        for length in 0..<80 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let text = Data(bytes).base64EncodedString()
            #expect(CanonicalBase64.decode(Array(text.utf8)) == bytes)
            // Every one-character change, a dropped or added character, or a space or line break.
            var variants = [String(text.dropLast()), text + "=", text + "A", " " + text, text + "\n", String(text.prefix(4)) + "\n" + text.dropFirst(4)]
            for (i, _) in text.enumerated() {
                for replacement in ["A", "B", "Q", "g", "/", "+", "=", "-", "_", "*"] {
                    var characters = Array(text)
                    characters[i] = Character(replacement)
                    variants.append(String(characters))
                }
            }
            for variant in variants {
                #expect(CanonicalBase64.decode(Array(variant.utf8)) == foundationAccepts(variant), "\(variant)")
            }
        }
    }
}

/// The in-place reader takes a payload only as deep as the general parser takes it inside its
/// element: at the limit, both refuse or both accept.
@Suite struct ExportEntryDepthTests {
    @Test(arguments: [60, 61, 62, 63, 64, 65])
    func deepPayloadsAreReadAsTheGeneralParserReadsThem(depth: Int) throws {
        let bytes = try ExportReadingTests.export()
        let (_, ranges) = try JSONValue.parse(bytes, deferringElementsOf: "history")
        let range = try #require(ranges?.last)
        // The payload gets a member nested `depth` levels deep counting the payload itself.
        var element = Array(bytes[range])
        let marker = Array(#""payload":{"#.utf8)
        let at = try #require((0...(element.count - marker.count)).first { Array(element[$0..<($0 + marker.count)]) == marker }) + marker.count
        let deep = Array(("\"x\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + ",").utf8)
        element.insert(contentsOf: deep, at: at)
        let general = (try? JSONValue(parsing: element)) != nil
        #expect((ExportedEntry.read(element, 0..<element.count) != nil) == general, "depth \(depth)")
        #expect(general == (depth <= JSONValue.maximumDepth - 1))
    }
}

/// Export writes each history entry straight into bytes (hex, base64, ids and numbers without
/// strings in between): the bytes must be those of the plain Foundation rendering.
@Suite struct ExportWritingTests {
    @Test func historyEntriesAreTheFoundationRendering() throws {
        let service = try AccountService.open(at: temporaryDirectory())
        let ann = try AccountHandle("ann")
        // Names of several lengths, so envelopes end in every base64 padding.
        for name in ["A", "Ab", "Abc", "Ann \"Q\" Zoë", "Ann Long Name For Padding"] {
            _ = try service.execute(.rename(try ProfileName(name)), for: ann)
        }
        _ = try service.execute(.addFavorites((1...30).map { try! MediaKey($0 % 2 == 0 ? .tv : .movie, Int64($0 * 99_991)) }), for: ann)
        _ = try service.execute(.removeFavorites([try MediaKey(.tv, 2 * 99_991)]), for: ann)
        let export = try service.export(of: ann)
        var paddings = Set<Int>()
        for event in export.events {
            let e = event.envelope
            let payload = try JSONValue(parsing: try #require(event.payload)).encoded()
            let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
            let base64 = Data(e.bytes).base64EncodedString()
            paddings.insert(base64.filter { $0 == "=" }.count)
            let expected =
                "{\"position\":\(e.position),\"streamVersion\":\(e.streamVersion),\"eventId\":\"\(e.eventID.uuidString.lowercased())\","
                + "\"type\":\(String(decoding: JSONValue.string(e.type).encoded(), as: UTF8.self)),\"schemaVersion\":\(e.schemaVersion),"
                + "\"recordedAt\":\"\(UTCTime.iso(e.recordedAtMicroseconds))\",\"payload\":\(String(decoding: payload, as: UTF8.self)),"
                + "\"payloadSha256\":\"\(hex(Array(SHA256.hash(data: payload))))\",\"previousHash\":\"\(hex(e.previousHash.bytes))\","
                + "\"hash\":\"\(hex(e.hash.bytes))\",\"envelope\":\"\(base64)\"}"
            #expect(String(decoding: try AccountExport.historyEntry(event), as: UTF8.self) == expected)
        }
        #expect(paddings == [0, 1, 2])
    }
}
