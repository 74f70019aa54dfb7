/// A command the domain refuses, in words a person can act on.
public enum DomainError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidTMDbID(String)
    case invalidName(String)
    case invalidLanguage(String, String)
    case invalidHandle(String)
    case invalidPhoto(String)
    /// An import source other than the ones Reel imports from (`ImportedFavorite.sources`).
    case invalidImportSource(String)
    case accountDeleted(String)
    /// The account was moved to another shard (or is being moved: `reel store move` finishes it).
    case accountMoved(String)
    /// A stored payload that does not decode as its event type and version says.
    case undecodableEvent(type: String, version: UInt16, reason: String)

    public var description: String {
        switch self {
        case .invalidTMDbID(let text): "'\(text)' is not a TMDb id (a positive whole number up to \(MediaKey.maximumID))"
        case .invalidName(let why): "invalid name: \(why)"
        case .invalidLanguage(let tag, let why): "'\(tag)' is not a language tag: \(why)"
        case .invalidHandle(let text):
            "'\(text)' is not an account handle (1-64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit)"
        case .invalidPhoto(let why): "invalid photo: \(why)"
        case .invalidImportSource(let source):
            "'\(source)' is not a source Reel imports from (\(ImportedFavorite.sources.sorted().joined(separator: ", ")))"
        case .accountDeleted(let handle): "the account '\(handle)' is deleted and accepts no commands"
        case .accountMoved(let handle):
            "the account '\(handle)' has moved to another shard (or its move is unfinished: run 'reel store move --handle \(handle)' over the shard map)"
        case .undecodableEvent(let type, let version, let reason): "a stored \(type) v\(version) event does not decode: \(reason)"
        }
    }
}
