import JSONKit

/// What OMDb answered: a title, or its error (`{"Response":"False","Error":"Movie not found!"}`,
/// sent with 200 for a title it lacks and with 401 for a bad key or a spent daily limit).
public enum OMDbAnswer: Sendable, Equatable {
    case title(OMDbTitle)
    case notFound(String)
    case invalidKey(String)
    case limitReached(String)
    case failed(String)

    /// Reads an OMDb body; nil when it is neither a title nor an OMDb error (not JSON, another shape).
    public init?(body: [UInt8]) {
        guard let value = try? JSONValue(parsing: body), case .object(let object) = value else { return nil }
        if case .string(let response)? = object["Response"], response == "False" {
            let message: String
            if case .string(let text)? = object["Error"] { message = text } else { message = "unknown error" }
            switch message {
            case "Invalid API key!", "No API key provided.": self = .invalidKey(message)
            case "Request limit reached!": self = .limitReached(message)
            case "Movie not found!", "Incorrect IMDb ID.", "Series or season not found!", "Episode not found!": self = .notFound(message)
            default: self = .failed(message)
            }
            return
        }
        guard let title = try? JSONValueDecoder().decode(OMDbTitle.self, from: body) else { return nil }
        self = .title(title)
    }
}
