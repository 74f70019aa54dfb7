/// What a key can be bound to in `keys.toml`: each action has its default keys, and the key the
/// app's logic understands it by (`canonical`), which a key bound to it is read as.
public enum KeyAction: String, CaseIterable, Sendable {
    case down, up, first, last
    case halfDown = "half-down", halfUp = "half-up", pageDown = "page-down", pageUp = "page-up"
    case movies, series, search, saved, settings
    case nextTab = "next-tab", previousTab = "previous-tab"
    case reload, help, quit
    case list, sort, reverse, genres, year, clear

    /// The keys of the action unless `keys.toml` binds others.
    public var defaults: [Key] {
        switch self {
        case .down: [.down, .character("j")]
        case .up: [.up, .character("k")]
        case .first: [.home, .character("g")]
        case .last: [.end, .character("G")]
        case .halfDown: [.control("d")]
        case .halfUp: [.control("u")]
        case .pageDown: [.pageDown]
        case .pageUp: [.pageUp]
        case .movies: [.character("1")]
        case .series: [.character("2")]
        case .search: [.character("3")]
        case .saved: [.character("4")]
        case .settings: [.character("5")]
        case .nextTab: [.tab]
        case .previousTab: [.backTab]
        case .reload: [.character("r")]
        case .help: [.character("?")]
        case .quit: [.character("q")]
        case .list: [.character("l")]
        case .sort: [.character("o")]
        case .reverse: [.character("O")]
        case .genres: [.character("f")]
        case .year: [.character("y")]
        case .clear: [.character("c")]
        }
    }

    /// The key `AppUpdate` takes for the action: its first default.
    public var canonical: Key { defaults[0] }
}
