/// Which of the global options mean something to a command: `--user` where it acts on one
/// account, `--offline` where it reads the catalog or asks TMDb. The others are hidden from its
/// help (`CommandOptions`).
protocol OptionScope {
    static var usesAccount: Bool { get }
    static var usesCatalog: Bool { get }
    /// `--data-dir`'s help: where this command's data goes when none is named.
    static var dataDirectoryHelp: String { get }
    /// Whether the command prints times in text, so that `--utc` is in its help.
    static var printsTimes: Bool { get }
    /// Whether the command reads or writes the data directory, so that `--data-dir` is in its help.
    static var usesDataDirectory: Bool { get }
    /// `--user`'s help, where the command takes it.
    static var accountHelp: String { get }
    /// Whether the command reads or writes the ledger, so that `--store` is in its help.
    static var usesStore: Bool { get }
    /// `--store`'s help, where the command takes it.
    static var storeHelp: String { get }
}

extension OptionScope {
    static var dataDirectoryHelp: String { "Where the ledger lives (env REEL_DATA_DIR; default $XDG_DATA_HOME/reel)." }
    static var accountHelp: String { "The account to act on (env REEL_USER; default 'default')." }
    static var printsTimes: Bool { false }
    static var usesDataDirectory: Bool { true }
    static var usesStore: Bool { usesDataDirectory }
    static var storeHelp: String {
        "A PostgreSQL store (a URL), or a shard map of several (FILE.json), to use instead of the LMDB store in the data directory (env REEL_STORE; see 'reel store')."
    }
}

/// The scope `Base` of a command that prints times as well (`history`, `accounts`).
enum PrintingTimes<Base: OptionScope>: OptionScope {
    static var usesAccount: Bool { Base.usesAccount }
    static var usesCatalog: Bool { Base.usesCatalog }
    static var dataDirectoryHelp: String { Base.dataDirectoryHelp }
    static var printsTimes: Bool { true }
    static var usesDataDirectory: Bool { Base.usesDataDirectory }
    static var accountHelp: String { Base.accountHelp }
    static var usesStore: Bool { Base.usesStore }
    static var storeHelp: String { Base.storeHelp }
}

enum AccountAndCatalog: OptionScope {
    static let usesAccount = true
    static let usesCatalog = true
}

enum AccountOnly: OptionScope {
    static let usesAccount = true
    static let usesCatalog = false
}

enum CatalogOnly: OptionScope {
    static let usesAccount = false
    static let usesCatalog = true
    static let usesStore = false
}

enum LedgerOnly: OptionScope {
    static let usesAccount = false
    static let usesCatalog = false
}

/// `reel demo`: its own accounts, the catalog, and a new scratch directory unless one is named.
enum DemoScope: OptionScope {
    static let usesAccount = false
    static let usesCatalog = true
    static let dataDirectoryHelp = "Where the tour's ledger goes (env REEL_DATA_DIR; default a new reel-demo-… directory in $TMPDIR, else /tmp)."
    static let printsTimes = true
}

/// `tmdb login` and `tmdb logout`: the credentials file, which is not in the data directory.
enum CredentialsOnly: OptionScope {
    static let usesAccount = false
    static let usesCatalog = false
    static let usesDataDirectory = false
}

/// `token list`: every account's tokens, or with `--user` one account's (`REEL_USER`, which a
/// shell may set for every command, does not narrow an operator's list).
enum TokenListing: OptionScope {
    static let usesAccount = true
    static let usesCatalog = false
    static let accountHelp = "List only this account's tokens (default: every account's; REEL_USER is not read)."
}

/// `reel store`: a PostgreSQL store named by URL; no account, no catalog, no data directory.
enum StoreOnly: OptionScope {
    static let usesAccount = false
    static let usesCatalog = false
    static let usesDataDirectory = false
    static let usesStore = true
    static let storeHelp = "The PostgreSQL store (env REEL_STORE)."
}
