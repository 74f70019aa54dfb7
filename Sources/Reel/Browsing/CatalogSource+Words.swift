import Catalog

extension CatalogClient.Source {
    /// "TMDb has no movie with id 1", or for the bundled sample "the sample catalog has no movie
    /// with id 1 (…)": what is missing from the sample may well be on TMDb.
    func hasNo(_ what: String) -> String {
        self == .sample ? "the sample catalog has no \(what) (TMDb credentials show every title and person)" : "TMDb has no \(what)"
    }

    /// "TMDb knows no person named …", or "the sample catalog knows no …".
    func knowsNo(_ what: String) -> String {
        self == .sample ? "the sample catalog knows no \(what) (TMDb credentials show every title and person)" : "TMDb knows no \(what)"
    }
}
