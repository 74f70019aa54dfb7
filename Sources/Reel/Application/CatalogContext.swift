import Catalog
import Foundation
import Synchronization

/// Where the use cases get the catalog from: the TMDb credentials and OMDb key as configured, and
/// the catalog, image and OMDb clients made from them, each at most once per process and only
/// when a use case first needs it. `close()` shuts the clients' connections down.
final class CatalogContext: Sendable {
    let configuration: Application.Configuration

    private struct Made {
        var credentials: CredentialStore.Found??
        var catalog: CatalogClient?
        var images: ImageClient?
        var omdbKey: OMDbKeyStore.Found??
        /// `.some(nil)`: OMDb is not configured (TMDb credentials without an OMDb key).
        var omdb: OMDbClient??
        /// Languages the sample catalog lacks that were noted already (`noteSampleLanguage`).
        var sampleLanguageNoted: Set<String> = []
    }

    private let made = Mutex(Made())
    /// Held while a client is made: two use cases running at once (the terminal app's effects)
    /// each made a catalog client, and the one dropped unclosed crashed the process
    /// (AsyncHTTPClient's deinit precondition). Not `made`'s lock: making one reads the
    /// credentials through it.
    private let making = Mutex(())

    init(_ configuration: Application.Configuration) {
        self.configuration = configuration
    }

    /// Closes the clients that were made.
    func close() async {
        let (client, images, omdb) = made.withLock { made in
            defer {
                made.catalog = nil
                made.images = nil
                made.omdb = nil
            }
            return (made.catalog, made.images, made.omdb ?? nil)
        }
        await omdb?.shutdown()
        await images?.shutdown()
        await client?.shutdown()
    }

    /// The configured TMDb credentials, read once (`nil`: none configured).
    func credentials() throws -> CredentialStore.Found? {
        if let found = made.withLock({ $0.credentials }) { return found }
        let found = try CredentialStore(environment: configuration.environment).load()
        made.withLock { $0.credentials = .some(found) }
        return found
    }

    /// The configured OMDb key, read once (`nil`: none configured).
    func omdbKey() throws -> OMDbKeyStore.Found? {
        if let found = made.withLock({ $0.omdbKey }) { return found }
        let found = try OMDbKeyStore(environment: configuration.environment).load()
        made.withLock { $0.omdbKey = .some(found) }
        return found
    }

    /// The catalog client if a use case made it already.
    func loadedCatalog() -> CatalogClient? { made.withLock { $0.catalog } }

    /// The catalog client, made once: TMDb with the response cache when credentials are
    /// configured, else the bundled sample catalog (with a notice).
    func catalog() throws -> CatalogClient {
        if let client = made.withLock({ $0.catalog }) { return client }
        return try making.withLock { _ in
            if let client = made.withLock({ $0.catalog }) { return client }
            let client = try makeCatalogClient()
            made.withLock { $0.catalog = client }
            return client
        }
    }

    /// The image client, made once (after the catalog client, whose `/configuration` it reads).
    func images() throws -> ImageClient {
        if let client = made.withLock({ $0.images }) { return client }
        let catalog = try catalog()
        return try making.withLock { _ in
            if let client = made.withLock({ $0.images }) { return client }
            let client = try makeImageClient(on: catalog)
            made.withLock { $0.images = client }
            return client
        }
    }

    /// The OMDb client, made once (after the catalog client, whose cache it shares): OMDb with
    /// the key, the sample's facts when neither TMDb nor OMDb has credentials, else `nil`.
    func omdb() throws -> OMDbClient? {
        if let client = made.withLock({ $0.omdb }) { return client }
        let catalog = try catalog()
        return try making.withLock { _ in
            if let client = made.withLock({ $0.omdb }) { return client }
            let client = try makeOMDbClient(beside: catalog)
            made.withLock { $0.omdb = .some(client) }
            return client
        }
    }

    /// Says once per process, when the catalog is the bundled sample (no credentials) and it has
    /// no text in `language`, that titles are shown in English: TMDb would show them translated.
    func noteSampleLanguage(_ language: String) {
        guard !SampleCatalog.speaks(language), (try? credentials().map { _ in true } ?? false) == false else { return }
        let first = made.withLock { made in made.sampleLanguageNoted.insert(language).inserted }
        guard first else { return }
        configuration.notice(
            Notice(
                "the sample catalog has no \(language) text; titles are shown in English (TMDb credentials show every language)",
                routine: "sample-language-\(language)"))
    }
}
