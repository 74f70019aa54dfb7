import Catalog
import Ledger

/// Whose image a front end asks for: a title's poster or backdrop, or a person's profile photo.
public enum ImageSubject: Sendable, Equatable {
    case poster(MediaKey)
    case backdrop(MediaKey)
    case profile(personID: Int64)

    var kind: ImageConfiguration.Kind {
        switch self {
        case .poster: .poster
        case .backdrop: .backdrop
        case .profile: .profile
        }
    }

    /// `poster of movie 550`, for messages.
    public var description: String {
        switch self {
        case .poster(let key): "poster of \(key.mediaType.rawValue) \(key.id)"
        case .backdrop(let key): "backdrop of \(key.mediaType.rawValue) \(key.id)"
        case .profile(let id): "profile photo of person \(id)"
        }
    }
}
