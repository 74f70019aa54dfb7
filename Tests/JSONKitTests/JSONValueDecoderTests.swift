import JSONKit
import Testing

/// `JSONValueDecoder` follows JSONDecoder's rules where models meet them, and its errors carry
/// the coding path (the Catalog suite checks that it agrees with JSONDecoder on every TMDb sample).
@Suite struct JSONValueDecoderTests {
    struct Row: Decodable, Equatable {
        let id: Int
        let name: String?
        let score: Double
        let tags: [String]
        let flag: Bool?
    }

    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONValueDecoder().decode(type, from: Array(text.utf8))
    }

    /// "field.path: what", the way the client words a decoding error.
    private func failure(_ text: String) -> String {
        do {
            _ = try decode([Row].self, text)
            return "decoded"
        } catch let error as DecodingError {
            func path(_ context: DecodingError.Context) -> String {
                context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            }
            switch error {
            case .typeMismatch(let type, let context): return "\(path(context)): \(type)"
            case .valueNotFound(let type, let context): return "\(path(context)): \(type) null"
            case .keyNotFound(let key, let context): return "\(path(context)).\(key.stringValue): missing"
            case .dataCorrupted(let context): return "\(path(context)): corrupt"
            @unknown default: return "?"
            }
        } catch {
            return "not JSON"
        }
    }

    @Test func decodesWhatModelsMeet() throws {
        let rows = try decode([Row].self, #"[{"id":5.0,"name":null,"score":7,"tags":["a","b"]},{"id":-3,"name":"x","score":0.5,"tags":[],"flag":true}]"#)
        #expect(rows == [
            Row(id: 5, name: nil, score: 7, tags: ["a", "b"], flag: nil), Row(id: -3, name: "x", score: 0.5, tags: [], flag: true),
        ])
        #expect(try decode([String: Int].self, #"{"a":1,"b":2}"#) == ["a": 1, "b": 2])
        #expect(try decode(Int8?.self, "null") == nil)
        #expect(try decode(UInt16.self, "65535") == 65_535)
    }

    @Test func errorsNameTheFieldAndWhatWasWrong() {
        #expect(failure(#"[{"id":"1","score":1,"tags":[]}]"#) == "[0].id: Int")
        #expect(failure(#"[{"id":1,"score":1,"tags":[]},{"id":2,"score":1}]"#) == "[1].tags: missing")
        #expect(failure(#"[{"id":1,"score":null,"tags":[]}]"#) == "[0].score: Double null")
        #expect(failure(#"[{"id":1,"score":1,"tags":[3]}]"#) == "[0].tags[0]: String")
        #expect(failure(#"[{"id":2.5,"score":1,"tags":[]}]"#) == "[0].id: corrupt")
        #expect(failure(#"[{"id":1e300,"score":1,"tags":[]}]"#) == "[0].id: corrupt")
        #expect(failure(#"[{"id":1,"score":1,"tags":{}}]"#) == "[0].tags: Array<Any>")
        #expect(failure(#"[5]"#) == "[0]: Dictionary<String, Any>")
        #expect(failure(#"[{"id":1,"#) == "not JSON")
        #expect(failure(#"[{"id":1,"score":1,"tags":[]}]"#) == "decoded")
    }
}
