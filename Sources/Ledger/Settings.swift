/// The settings projection: name, photo and language. A pure reducer.
public struct Settings: Sendable, Hashable {
    public var name: ProfileName?
    public var photo: PhotoReference?
    public var language: LanguageTag = .default

    public init(name: ProfileName? = nil, photo: PhotoReference? = nil, language: LanguageTag = .default) {
        self.name = name
        self.photo = photo
        self.language = language
    }

    public mutating func apply(_ recorded: RecordedDomainEvent) {
        switch recorded.event {
        case .profileNameChanged(let name): self.name = name
        case .profilePhotoChanged(let photo): self.photo = photo
        case .profilePhotoRemoved: photo = nil
        case .languageSwitched(let tag): language = tag
        case .accountDeleted: self = Settings()
        default: break
        }
    }
}
