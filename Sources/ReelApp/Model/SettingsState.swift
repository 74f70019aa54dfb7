/// The Settings tab: the account's settings and the installation's (`info`, read from the
/// core), the row the cursor is on, a field being typed into or a picker open, and what a
/// deletion destroyed.
public struct SettingsState: Sendable, Equatable {
    /// The rows, top to bottom.
    public enum Row: Int, CaseIterable, Sendable {
        case name, photo, language, account, delete
    }

    /// A field open on a row: its text, and what enter does with it.
    public enum Editing: Sendable, Equatable {
        case name(TextField)
        /// A JPEG or PNG path; empty removes the photo.
        case photo(TextField)
        /// The handle of an account to switch to (made by its first change).
        case newAccount(TextField)
        /// The handle typed again, to delete the account.
        case confirmDelete(TextField)

        public var field: TextField {
            switch self {
            case .name(let f), .photo(let f), .newAccount(let f), .confirmDelete(let f): f
            }
        }

        func with(_ field: TextField) -> Editing {
            switch self {
            case .name: .name(field)
            case .photo: .photo(field)
            case .newAccount: .newAccount(field)
            case .confirmDelete: .confirmDelete(field)
            }
        }
    }

    public var info: SettingsInfo?
    public var loading = false
    public var error: String?
    public var row: Row = .name
    public var editing: Editing?
    public var picker: Picker?
    /// A change asked for and not answered yet (`saving the name…`).
    public var pending: String?
    /// What deleting the account destroyed, shown until the next key.
    public var deleted: [String]?

    public init() {}
}
