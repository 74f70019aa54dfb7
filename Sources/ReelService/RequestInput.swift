import Foundation
import Hummingbird
import NIOCore
import Reel

/// A request's body and query read with the service's limits: at most so many bytes (413
/// beyond), within the body timeout (a client that trickles its body is cut off), JSON no deeper
/// than the limit (checked before parsing), and parameters named in one clear line when wrong.
struct RequestInput {
    let settings: ServiceSettings

    /// The body's bytes, at most `limit`.
    func bytes(_ request: Request, limit: Int) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw Problem.tooLarge(limit) }
        let timeout = settings.bodyTimeout
        let buffer: ByteBuffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { [request] in
                var request = request
                do {
                    return try await request.collectBody(upTo: limit)
                } catch let error as HTTPError where error.status == .contentTooLarge {
                    throw Problem.tooLarge(limit)
                } catch is NIOTooManyBytesError {
                    // A body without Content-Length (chunked) that outgrows the limit: NIO's own
                    // error, which was a 500.
                    throw Problem.tooLarge(limit)
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else {
                throw Problem(.requestTimeout, kind: "timeout", "the request body did not arrive within \(Int(timeout)) s")
            }
            return buffer
        }
        return Array(buffer.readableBytesView)
    }

    /// The body as a JSON object (`application/json`), at most the body limit and the depth limit.
    func object(_ request: Request) async throws -> [String: JSONValue] {
        let bytes = try await bytes(request, limit: settings.maximumBody)
        if Self.depth(of: bytes) > settings.maximumJSONDepth {
            throw Problem.usage("the JSON body is nested deeper than \(settings.maximumJSONDepth) levels")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw Problem.usage("the body is not JSON: \(error.description)")
        }
        guard case .object(let members) = value else { throw Problem.usage("the body must be a JSON object") }
        return members
    }

    /// How deeply arrays and objects nest in `bytes` (strings skipped), counted without parsing.
    static func depth(of bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// A string member of a JSON body, required.
    static func string(_ body: [String: JSONValue], _ name: String) throws -> String {
        guard let value = body[name] else { throw Problem.usage("the body has no \"\(name)\"") }
        guard let text = value.stringValue else { throw Problem.usage("\"\(name)\" must be a string") }
        return text
    }

    /// A query parameter, if given (an empty value is given: it is refused by its reader).
    static func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map { String($0) }
    }

    /// Every value of a repeated query parameter (`?genre=18&genre=35`).
    static func queries(_ request: Request, _ name: String) -> [String] {
        request.uri.queryParameters.getAll(name).map { String($0) }
    }

    /// A query parameter that must be a whole number in `range`.
    static func integer(_ request: Request, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = query(request, name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw Problem.usage("\(name)=\(text) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A query parameter that must be `true` or `false`.
    static func flag(_ request: Request, _ name: String) throws -> Bool? {
        guard let text = query(request, name) else { return nil }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw Problem.usage("\(name)=\(text): expected true or false")
        }
    }
}
