import Reel

/// Runs an effect against the application core — the same use cases the commands call — and
/// says what came of it as a message.
struct EffectRunner: Sendable {
    let application: Application
    /// The account effects are for: the Settings tab switches it.
    let account: CurrentAccount
    let clock: LocalClock
    /// Renders pictures the way the terminal shows them.
    let pictures: PictureMaker
    /// Opens links (a trailer) in the person's browser.
    var browser = BrowserOpener()
    /// Says something to the app while an effect runs (how far a long load has come).
    var post: @Sendable (AppMessage) -> Void = { _ in }

    var handle: AccountHandle { account.value }

    /// What came of `effect`; `nil` for one that says nothing once (`SavedEffect.watch`).
    func run(_ effect: AppEffect) async -> AppMessage? {
        switch effect {
        case .loadPage(let mediaType, let page, let query):
            do {
                let report = try await application.titleList(query.titleListQuery(mediaType, page: page), for: handle)
                let rows = report.rows.map(TitleRow.init)
                return .pageLoaded(
                    mediaType,
                    TitlePage(
                        page: page, rows: rows, totalPages: report.paging.totalPages, totalResults: report.paging.totalResults,
                        language: report.language, query: query))
            } catch {
                return .pageFailed(mediaType, page: page, message: Self.describe(error), query: query)
            }
        case .saved(let effect):
            return await run(effect)
        case .settings(let effect):
            return await run(effect)
        case .loadStatus:
            let language = (try? application.account(handle).state.settings.language.description) ?? "en"
            let catalog: CatalogKind
            if application.configuration.offline {
                catalog = .offline
            } else {
                catalog = (try? application.catalogIsSample()) == true ? .sample : .tmdb
            }
            return .statusLoaded(language: language, catalog: catalog)
        case .search(let effect):
            return .search(await run(effect))
        case .details(let effect):
            return .details(await run(effect))
        case .preview(let effect):
            return .preview(await run(effect))
        case .loadPicture(let key):
            return await run(picture: key)
        case .preparePicture(let key):
            return await run(picture: key, cachedOnly: true)
        }
    }

    /// One line in words for the screen (`Couldn't reach TMDb: it answered 503 (unavailable)`);
    /// the failure whole, with its endpoint, goes to the app's log (`AppLog`).
    static func describe(_ error: any Error) -> String {
        AppLog.described(error)
    }
}
