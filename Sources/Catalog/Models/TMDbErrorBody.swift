/// TMDb's two error bodies: `{status_code, status_message, success?}` (most errors) and
/// `{errors: [String]}` (422 validation). Either part may be absent; the key order varies.
public struct TMDbErrorBody: Decodable, Sendable, Hashable {
    public let statusCode: Int?
    public let statusMessage: String?
    public let errors: [String]

    enum CodingKeys: String, CodingKey {
        case statusCode = "status_code", statusMessage = "status_message", errors
    }

    public init(statusCode: Int?, statusMessage: String?, errors: [String] = []) {
        self.statusCode = statusCode
        self.statusMessage = statusMessage
        self.errors = errors
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        statusCode = try c.decodeIfPresent(Int.self, forKey: .statusCode)
        statusMessage = try c.text(.statusMessage)
        errors = try c.list(.errors)
    }

    /// Whatever TMDb said, in one line.
    public var message: String? {
        if let statusMessage { return statusMessage }
        return errors.isEmpty ? nil : errors.joined(separator: "; ")
    }
}
