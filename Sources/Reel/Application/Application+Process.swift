import Catalog
import EventLog

extension Application {
    /// Why a TMDb credential given `place` ("on standard input") is refused, without a word of it.
    public static func malformedCredential(_ place: String, service: String = "TMDb") -> String {
        CredentialStore.malformedCredential(place, service: service)
    }
}
