import Catalog
import Ledger

extension Application {
    /// The languages `settings language` takes, and the account's own.
    public func languages(for handle: AccountHandle) throws -> LanguagesReport {
        let current = LanguageTag(stored: try reader(handle).language)
        let sample = try catalogs.credentials() == nil
        return LanguagesReport(
            languages: LanguageTag.languageCodes.map { code in
                LanguagesReport.Language(code: code, name: LanguageTag(stored: code).languageName, inSampleCatalog: SampleCatalog.speaks(code))
            },
            regions: LanguageTag.regionCodes, current: current, sampleCatalog: sample)
    }
}
