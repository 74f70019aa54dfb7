import Reel

/// Where pictures go on the screen a model draws, and the room they take from the text: the
/// poster beside a title's details (on a screen 100 columns wide or more), a thumbnail at the
/// left of every row of a list of titles while `p` has them on (Movies, Series, Saved, Search
/// results), the poster in the preview beside a list on a wide screen (`PreviewPane`), and the
/// account's photo beside the settings. `AppView` places the pictures loaded
/// in these boxes; `PictureUpdate` asks for the ones not loaded yet, so only what is on screen
/// is ever fetched. Nothing when the terminal draws no pictures.
enum PictureLayout {
    /// A box of cells a picture is drawn in (the key names its size too).
    struct Box: Equatable {
        var key: PictureKey
        var row: Int
        var column: Int
        /// What the box shows while the picture loads or when it cannot be had (`poster`,
        /// `photo`); nil for a thumbnail, which shows nothing then.
        var caption: String? = nil
    }

    /// From this width the details screen has a poster at its right.
    static let posterFrom = 100
    static let posterColumns = 30
    /// A poster 30 columns wide is about 23 rows tall (2:3 in cells twice as tall as wide).
    static let posterRows = 23
    static let photoColumns = 20
    static let photoRows = 7

    static func boxes(_ model: AppModel) -> [Box] {
        guard model.pictures.available, !model.isTooSmall else { return [] }
        // The preview's poster first: asked for before the thumbnails, it is on screen soonest.
        return (PreviewPane.posterBox(model).map { [$0] } ?? []) + screenBoxes(model)
    }

    private static func screenBoxes(_ model: AppModel) -> [Box] {
        switch (model.screens.last, model.tab) {
        case (.details(let screen)?, _): return poster(screen, model).map { [$0] } ?? []
        case (.person?, _): return []
        case (nil, .movies), (nil, .series):
            guard model.showsThumbnails else { return [] }
            let list = model.tab == .movies ? model.movies : model.series
            let visible = model.visibleListRows
            let top = ListView.top(count: list.rows.count, cursor: list.cursor, hasTail: ListView.tail(list) != nil, visible: visible)
            return thumbnails(of: list.rows.indices, top: top, visible: visible, firstRow: 3, model) { list.rows[$0].posterPath.map(Source.poster) }
        case (nil, .saved):
            let saved = model.saved
            guard model.showsThumbnails, !saved.showsHistory else { return [] }
            let visible = SavedUpdate.visibleRows(model)
            let top = ListView.top(count: saved.shown.count, cursor: saved.cursor, hasTail: SavedView.tail(saved) != nil, visible: visible)
            return thumbnails(of: saved.shown.indices, top: top, visible: visible, firstRow: 3 + SavedView.lineRows(model), model) { saved.shown[$0].posterPath.map(Source.poster) }
        case (nil, .search):
            let search = model.search
            guard model.showsThumbnails, !search.showsDefaultPerson else { return [] }
            let visible = SearchUpdate.resultRows(model)
            let top = search.cursor.scrolled(count: search.results.count, visible: visible).top
            return thumbnails(of: search.results.indices, top: top, visible: visible, firstRow: 4, model) { index in
                switch search.results[index] {
                case .title(let row): row.posterPath.map(Source.poster)
                case .person(let person): person.profilePath.map(Source.profile)
                }
            }
        case (nil, .settings): return photo(model).map { [$0] } ?? []
        }
    }

    /// Where a thumbnail's picture comes from.
    private enum Source {
        case poster(String)
        case profile(String)

        func key(_ size: (columns: Int, rows: Int)) -> PictureKey {
            switch self {
            case .poster(let path): PictureKey(.tmdb(path: path, kind: .poster), columns: size.columns, rows: size.rows)
            case .profile(let path): PictureKey(.tmdb(path: path, kind: .profile), columns: size.columns, rows: size.rows)
            }
        }
    }

    /// The thumbnails of the rows shown (`visible` of `rows` from `top`), each at the left of its
    /// row; only those rows are looked at.
    private static func thumbnails(
        of rows: Range<Int>, top: Int, visible: Int, firstRow: Int, _ model: AppModel, source: (Int) -> Source?
    ) -> [Box] {
        (0..<visible).compactMap { offset in
            let index = top + offset
            guard rows.contains(index), let source = source(index) else { return nil }
            return Box(key: source.key(model.pictures.thumbnailSize), row: firstRow + offset * model.rowHeight, column: 2)
        }
    }

    /// Columns a list row's text starts further right to leave its thumbnail room (0 without).
    static func thumbnailIndent(_ model: AppModel) -> Int { model.showsThumbnails ? model.pictures.thumbnailSize.columns + 1 : 0 }

    /// The poster beside the details (at their right): when the terminal draws pictures, the
    /// screen is wide enough and the title has a poster at TMDb.
    static func poster(_ screen: DetailsScreen, _ model: AppModel) -> Box? {
        guard model.pictures.available, model.width >= posterFrom, let path = screen.details?.posterPath else { return nil }
        // A line below it stays free: a sixel image may run a few pixels past its last row.
        let rows = min(posterRows, model.visibleRows - 1)
        guard rows >= 4 else { return nil }
        return Box(key: .poster(path, columns: posterColumns, rows: rows), row: 2, column: model.width - posterColumns - 1, caption: "poster")
    }

    /// The width the details' lines are laid out in: the screen's, less the poster's columns and
    /// a gap when it has one.
    static func detailsWidth(_ screen: DetailsScreen, _ model: AppModel) -> Int {
        poster(screen, model) == nil ? model.width : model.width - posterColumns - 2
    }

    /// The account's photo at the right of the settings' rows, when the account has one.
    static func photo(_ model: AppModel) -> Box? {
        guard model.pictures.available, let digest = model.settings.info?.photoDigest else { return nil }
        return Box(
            key: PictureKey(.accountPhoto(account: model.status.account, sha256: digest), columns: photoColumns, rows: photoRows), row: 2,
            column: model.width - photoColumns - 1, caption: "photo")
    }

    /// The column the settings' text ends before: the photo's, less a gap, or the screen's edge.
    static func settingsTextEnd(_ model: AppModel) -> Int {
        photo(model).map { $0.column - 2 } ?? model.width - 1
    }
}
