/// What the Settings tab shows of the account and the installation, read from the core
/// (`Application.account`, `languages`, `accounts`, `about`) as `reel settings`, `reel
/// languages`, `reel accounts` and `reel about` read them.
public struct SettingsInfo: Sendable, Equatable {
    public var name: String?
    /// `JPEG 120x80, 12,345 bytes`, `nil` without a photo.
    public var photo: String?
    /// The photo's SHA-256 (its reference's), which names the picture drawn beside the settings.
    public var photoDigest: String?
    /// The language tag (`de`) and its name (`German`).
    public var language: String
    public var languageName: String
    /// Every language the account may read the catalog in.
    public var languages: [PickerItem]
    /// The open accounts' handles.
    public var accounts: [String]
    /// What `reel about` lists, each named by its `value` (`data directory`) with its `label` the
    /// place (the path): the data directory, the ledger, the keys, the sealing.
    public var about: [PickerItem]

    public init(
        name: String?, photo: String?, language: String, languageName: String, languages: [PickerItem], accounts: [String], about: [PickerItem]
    ) {
        self.name = name
        self.photo = photo
        self.language = language
        self.languageName = languageName
        self.languages = languages
        self.accounts = accounts
        self.about = about
    }

    /// The same, with the photo's digest.
    public init(
        name: String?, photo: String?, photoDigest: String?, language: String, languageName: String, languages: [PickerItem],
        accounts: [String], about: [PickerItem]
    ) {
        self.init(name: name, photo: photo, language: language, languageName: languageName, languages: languages, accounts: accounts, about: about)
        self.photoDigest = photoDigest
    }
}
