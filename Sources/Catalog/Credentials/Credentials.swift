import Foundation

/// A TMDb credential: the API Read Access Token (sent as `Authorization: Bearer`) or a v3 API key
/// (the `api_key` query parameter). Its description never shows the secret.
public enum Credentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    case bearer(String)
    case apiKey(String)

    public var description: String {
        switch self {
        case .bearer: "TMDb read access token (hidden)"
        case .apiKey: "TMDb v3 API key (hidden)"
        }
    }

    public var debugDescription: String { description }

    /// True when a "token" has the shape of a v3 key (32 hexadecimal characters) rather than of a
    /// read access token (a long JWT starting `eyJ`): TMDb answers such a bearer with 401.
    public var looksLikeV3KeyUsedAsToken: Bool {
        guard case .bearer(let token) = self else { return false }
        return Self.looksLikeV3Key(token)
    }

    static func looksLikeV3Key(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
    }

    /// What a credential as given (stdin, the environment, the config file) amounts to.
    public enum Given: Sendable, Equatable {
        /// Nothing but whitespace.
        case empty
        /// The secret, without the whitespace and line breaks around it.
        case secret(String)
        /// Whitespace, a line break or another character outside printable ASCII inside it.
        case malformed
    }

    /// Reads a credential as given. TMDb's tokens (JWTs) and v3 keys (hex) are one word of
    /// printable ASCII: anything else inside (`bad\ntoken`, a CR from a Windows file, a space) is
    /// a mistake to refuse before any request, not part of a header to send or a prefix to save.
    public static func given(_ raw: String) -> Given {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .empty }
        guard trimmed.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return .malformed }
        return .secret(trimmed)
    }

    public var isAPIKey: Bool {
        if case .apiKey = self { return true }
        return false
    }

    /// The secret, for the one place that sends it.
    var secret: String {
        switch self {
        case .bearer(let s), .apiKey(let s): s
        }
    }
}
