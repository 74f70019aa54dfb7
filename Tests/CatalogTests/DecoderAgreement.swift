import Foundation
import JSONKit
import Testing
@testable import Catalog

/// Decodes `bytes` as `T` with the decoder the client uses (`JSONValueDecoder`) and with the
/// Foundation `JSONDecoder` it replaced, recording an issue unless both make the same value or
/// fail with the same words (`CatalogClient.describe`); answers the client's result. Every
/// model test goes through here, so each also checks that the two decoders agree.
func decodeAsTheClientDoes<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    let reel = Result { try JSONValueDecoder().decode(T.self, from: bytes) }
    let foundation = Result { try JSONDecoder().decode(T.self, from: Data(bytes)) }
    switch (reel, foundation) {
    case (.success(let mine), .success(let theirs)):
        #expect(String(reflecting: mine) == String(reflecting: theirs), sourceLocation: sourceLocation)
    case (.failure(let mine), .failure(let theirs)):
        // One deliberate difference: JSONDecoder reports a number that does not fit (2.5 as
        // an Int) without its coding path, which the client worded "not valid JSON".
        if case DecodingError.dataCorrupted(let context) = mine, !context.codingPath.isEmpty,
           case DecodingError.dataCorrupted(let their) = theirs, their.codingPath.isEmpty, (try? JSONValue(parsing: bytes)) != nil
        {
            break
        }
        #expect(words(mine) == words(theirs), sourceLocation: sourceLocation)
    default:
        Issue.record("JSONValueDecoder: \(reel); JSONDecoder: \(foundation)", sourceLocation: sourceLocation)
    }
    return try reel.get()
}

/// What the client says of a failed decoding.
private func words(_ error: any Error) -> String {
    (error as? DecodingError).map(CatalogClient.describe) ?? "not valid JSON"
}
