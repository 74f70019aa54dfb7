/// The pictures' logic: `p` turns thumbnails on list rows on and off, the pictures on screen
/// (`PictureLayout.boxes`) not known yet are asked for once each, and their answers are kept. A
/// picture that failed is not asked for again while it is kept (offline and not cached, the
/// poster simply does not show); one forgotten to keep within the bound is asked for again if it
/// comes back on screen.
enum PictureUpdate {
    /// `p`: thumbnails on or off, the lists' cursors kept on screen at the new row height; where
    /// the terminal draws no pictures the status line says why instead.
    static func toggleThumbnails(_ model: inout AppModel) {
        guard model.pictures.available else {
            model.status.note = "no pictures in this terminal: \(model.pictures.reason)"
            return
        }
        model.pictures.thumbnails.toggle()
        model.status.note = model.pictures.thumbnails ? "thumbnails on (p turns them off)" : "thumbnails off"
        rescrolled(&model)
    }

    /// The lists' cursors kept on screen after the rows that fit changed (a resize, `p`).
    static func rescrolled(_ model: inout AppModel) {
        model.movies.cursor = model.movies.cursor.scrolled(count: model.movies.rows.count, visible: model.visibleListRows)
        model.series.cursor = model.series.cursor.scrolled(count: model.series.rows.count, visible: model.visibleListRows)
        model.saved.refilter(visible: SavedUpdate.visibleRows(model))
        model.search.cursor = model.search.cursor.scrolled(count: model.search.results.count, visible: SearchUpdate.resultRows(model))
    }

    static func loaded(_ key: PictureKey, _ picture: DrawnPicture, _ model: inout AppModel) {
        model.pictures.answer(key, .drawn(picture))
    }

    static func failed(_ key: PictureKey, reason: String, _ model: inout AppModel) {
        model.pictures.answer(key, .failed(reason))
    }

    /// The pictures the screen shows and nobody asked for yet, asked for (then the oldest kept
    /// ones not on screen forgotten, past the bound).
    static func fill(_ model: inout AppModel) -> [AppEffect] {
        let wanted = PictureLayout.boxes(model).map(\.key)
        var effects: [AppEffect] = []
        for key in wanted {
            if model.pictures.request(key) { effects.append(.loadPicture(key)) }
        }
        if !effects.isEmpty { model.pictures.trim(keeping: Set(wanted)) }
        return effects
    }
}
