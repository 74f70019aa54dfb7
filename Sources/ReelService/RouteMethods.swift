import Reel

/// The methods each path of the service takes, read from the contract it serves
/// (`OpenAPIDocument`; the tests hold the routes and the document to each other), so a path asked
/// with a method it does not take is 405 with `Allow` (not 404), and a browser's preflight is
/// answered with what the path takes. The operator's paths are left out while the service runs
/// without an operator token: they are 404 then, whatever the method.
struct RouteMethods: Sendable {
    /// One documented path: its segments (nil where the document names a parameter, `{id}`) and
    /// its methods in the order `Allow` lists them.
    struct Route: Sendable {
        let pattern: String
        let segments: [String?]
        let methods: [String]
        /// `Allow`: the methods, then OPTIONS (which every documented path answers).
        var allow: String { (methods + ["OPTIONS"]).joined(separator: ", ") }
    }

    let routes: [Route]

    static let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]

    init(document: [UInt8] = OpenAPIDocument.bytes, operatorRoutes: Bool) {
        let paths = (try? JSONValue(parsing: document))?["paths"]?.objectValue ?? [:]
        routes = paths.compactMap { pattern, item in
            guard let operations = item.objectValue else { return nil }
            let methods = Self.order.filter { operations[$0.lowercased()] != nil }
            let isOperator = operations.values.contains { operation in
                guard case .array(let schemes)? = operation["security"] else { return false }
                return schemes.contains { $0["operatorToken"] != nil }
            }
            guard !methods.isEmpty, operatorRoutes || !isOperator else { return nil }
            let segments = pattern.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) }
            return Route(pattern: pattern, segments: segments, methods: methods)
        }
    }

    /// The documented path `path` is (its query ignored), literal segments matched before a
    /// parameter's; nil when it is none of them.
    func route(for path: String) -> Route? {
        let parts = path.prefix { $0 != "?" }.split(separator: "/")
        let candidates = routes.filter { route in
            route.segments.count == parts.count && zip(route.segments, parts).allSatisfy { segment, part in segment.map { $0 == part } ?? true }
        }
        return candidates.max { $0.segments.count { $0 != nil } < $1.segments.count { $0 != nil } }
    }
}
