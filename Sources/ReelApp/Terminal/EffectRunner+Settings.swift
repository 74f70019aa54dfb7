import Reel
import TerminalGraphics

/// The Settings tab's effects, on the use cases `reel settings`, `reel languages`, `reel
/// accounts`, `reel about` and `reel account delete` call.
extension EffectRunner {
    func run(_ effect: SettingsEffect) async -> AppMessage {
        let handle = account.value
        do {
            switch effect {
            case .load:
                return .settings(.loaded(try info(handle), account: handle.value))
            case .rename(let name):
                return .settings(.changed(said(try changingNow { try application.change(.rename(try ProfileName(typed: name)), for: $0) }), account: handle.value))
            case .photo(let path?):
                let photo = try Application.readPhoto(at: path)
                let report = try changingNow { try application.changePhoto(to: photo, from: path, for: $0) }
                return .settings(.changed(said(report), account: handle.value))
            case .photo(nil):
                return .settings(.changed(said(try changingNow { try application.change(.removePhoto, for: $0) }), account: handle.value))
            case .language(let typed):
                let tag = try LanguageTag(typed: typed)
                let report = try changingNow { try application.change(.switchLanguage(tag), for: $0) }
                return .settings(.languageSwitched(tag.description, message: said(report), account: handle.value))
            case .switchAccount(let name):
                account.value = try AccountHandle(name)
                return .settings(.switched(account: account.value.value))
            case .deleteAccount(let name):
                let doomed = try AccountHandle(name)
                // The account the app is bound to, when it deletes its own; another by its name.
                let report = try application.deleteAccount(doomed == handle ? try account.bound(application) : BoundAccount(doomed, stream: nil))
                account.deleted(doomed)
                return .settings(
                    .deleted(
                        [
                            "deleted the account '\(doomed)' for good",
                            "\(report.events) events stay in the ledger (stream \(report.stream)), their payloads unreadable: the key is destroyed",
                            "the audit chain still verifies; the handle '\(doomed)' is free for a new account",
                        ], account: doomed.value))
            }
        } catch {
            return .settings(.failed(Self.describe(error)))
        }
    }

    /// What the tab shows, read as the commands read it.
    private func info(_ handle: AccountHandle) throws -> SettingsInfo {
        // A deleted account's handle is free: its settings are the defaults until a new one opens.
        let settings: Settings
        do {
            settings = try application.account(handle).state.settings
        } catch ReelError.accountDeleted {
            settings = Settings()
        }
        let languages = try application.languages(for: handle)
        let about = application.about()
        let photo = settings.photo.map {
            "\($0.contentType == "image/png" ? "PNG" : "JPEG") \($0.width)x\($0.height), \(GroupedDigits.of($0.bytes)) bytes"
        }
        return SettingsInfo(
            name: settings.name?.value, photo: photo, photoDigest: settings.photo?.sha256, language: settings.language.description, languageName: settings.language.languageName,
            // The languages most asked for first, then the rest as listed; one the sample
            // catalog has no text in is marked `*` (the picker says once what that means).
            languages: Self.commonFirst(languages.languages, code: \.code).map { language in
                let mark = languages.sampleCatalog && !language.inSampleCatalog ? " *" : ""
                return PickerItem(language.code, "\(language.code)  \(language.name)\(mark)")
            },
            accounts: try application.accounts().filter { $0.status == .open }.compactMap { $0.handle?.value },
            about: [
                PickerItem("data directory", about.dataDirectory + (about.ledgerExists ? "" : " (no ledger yet)")),
                PickerItem("ledger", about.ledgerDirectory), PickerItem("account keys", about.keysDirectory),
                PickerItem("sealing", about.usesLibcrypto ? "AES-256-GCM, OpenSSL libcrypto" : "AES-256-GCM, swift-crypto"),
                PickerItem("pictures", pictures.capabilities.reason),
            ])
    }

    /// What a change did, in the core's words.
    private func said(_ report: ChangeReport) -> String {
        report.command.outcomes.map(report.message).joined(separator: "; ")
    }

    /// The languages people most often choose, first in the picker.
    static let commonLanguages = ["en", "de", "fr", "es", "it", "pt", "ja", "ko", "zh", "hi", "ru", "nl", "sv", "pl", "tr", "ar"]

    /// `items` with the common languages first (in `commonLanguages`' order), the rest after as they came.
    static func commonFirst<Item>(_ items: [Item], code: (Item) -> String) -> [Item] {
        let rank = Dictionary(uniqueKeysWithValues: commonLanguages.enumerated().map { ($1, $0) })
        let common = items.filter { rank[code($0)] != nil }.sorted { rank[code($0)]! < rank[code($1)]! }
        return common + items.filter { rank[code($0)] == nil }
    }
}
