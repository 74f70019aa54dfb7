import Reel
import LMDBStore

extension Application.Configuration {
    /// The LMDB store's configuration: its keyring where `keyringDirectory` says.
    var logConfiguration: EventLog.Configuration { EventLog.Configuration(keyringDirectory: keyringDirectory) }
}
