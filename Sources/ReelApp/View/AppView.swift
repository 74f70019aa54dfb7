import Presentation
import Reel

/// Draws a model into a `ScreenBuffer`: the tab bar, the current tab, its pictures
/// (`PictureLayout`), the status line, and the help or a filter over them (a picture they cover
/// is not placed). Pure: the same model always draws the same screen, so layouts are tested as
/// text (`ScreenBuffer.lines()`).
public enum AppView {
    public static func draw(_ model: AppModel) -> ScreenBuffer {
        var screen = ScreenBuffer(width: model.width, height: model.height)
        if model.isTooSmall {
            drawTooSmall(model, &screen)
            return screen
        }
        drawTabs(model, &screen)
        switch (model.screens.last, model.tab) {
        case (.details(let details)?, _): DetailsView.draw(details, model: model, into: &screen)
        case (.person(let person)?, _): PersonView.draw(person, model: model, into: &screen)
        case (nil, .movies), (nil, .series):
            let list = model.tab == .movies ? model.movies : model.series
            ListView.draw(list, heading: list.query.heading(list.mediaType), model: model, into: &screen)
        case (nil, .saved): SavedView.draw(model, into: &screen)
        case (nil, .search): SearchView.draw(model, into: &screen)
        case (nil, .settings): SettingsView.draw(model, into: &screen)
        }
        PreviewPane.draw(model, into: &screen)
        placePictures(model, &screen)
        if model.screens.isEmpty, let list = model.browseList(model.tab) { FilterView.draw(list, into: &screen) }
        if model.screens.isEmpty, model.tab == .saved, let picker = model.saved.genrePicker { FilterView.drawPicker(picker, into: &screen) }
        drawStatus(model, &screen)
        if model.showsHelp { HelpOverlay.draw(model, into: &screen) }
        return screen
    }

    /// The pictures loaded in their boxes; a box with a caption (the poster, the photo) says
    /// when its picture is loading or why there is none.
    private static func placePictures(_ model: AppModel, _ screen: inout ScreenBuffer) {
        for box in PictureLayout.boxes(model) {
            switch model.pictures[box.key] {
            case .drawn(let picture)?:
                screen.place(picture, key: box.key, row: box.row, column: box.column)
            case .failed(let why)?:
                guard let caption = box.caption else { continue }
                let lines = DisplayWidth.wrap("no \(caption): \(why)", width: box.key.columns, breakingWords: true)
                for (offset, line) in lines.prefix(box.key.rows).enumerated() {
                    screen.write(line, row: box.row + offset, column: box.column, limit: box.key.columns, style: CellStyle(.dim))
                }
            case .loading?, nil:
                guard let caption = box.caption else { continue }
                screen.write("\(caption)…", row: box.row, column: box.column, limit: box.key.columns, style: CellStyle(.dim))
            }
        }
    }

    private static func drawTooSmall(_ model: AppModel, _ screen: inout ScreenBuffer) {
        let lines = [
            "Reel needs a terminal of at least \(AppModel.minimumWidth)×\(AppModel.minimumHeight);",
            "this one is \(model.width)×\(model.height).",
        ]
        let top = max(0, (model.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            let column = max(0, (model.width - DisplayWidth.columns(line)) / 2)
            screen.write(line, row: top + offset, column: column)
        }
    }

    /// ` 1 Movies  2 Series  3 Search  4 Saved  5 Settings`, the current one reversed.
    private static func drawTabs(_ model: AppModel, _ screen: inout ScreenBuffer) {
        var column = 0
        for tab in Tab.allCases {
            let label = " \(tab.rawValue + 1) \(tab.title) "
            let style = tab == model.tab ? CellStyle([.reverse, .bold], color: .accent) : .plain
            column += screen.write(label, row: 0, column: column, style: style)
            column += 1
        }
        let help = "? help "
        screen.write(help, row: 0, column: model.width - DisplayWidth.columns(help), style: CellStyle(.dim))
    }

    /// ` ann · en · TMDb · error: …` on the left, `q quit` on the right, reversed.
    private static func drawStatus(_ model: AppModel, _ screen: inout ScreenBuffer) {
        let row = model.height - 1
        let status = model.status
        var parts = [status.account, status.language ?? "…", status.catalog.name]
        if let error = status.lastError {
            // The key that helps first, so a long error never cuts it off.
            parts.append((model.showsAFailedLoad ? "error (r retries): " : "error: ") + error)
        } else if let note = status.note {
            parts.append(note)
        }
        // What `q` (or, while typing, `esc`) does here.
        let right = !model.screens.isEmpty ? " q back " : model.tab == .search && model.search.editing ? " esc ends typing " : " q quit "
        screen.paint(row: row, style: CellStyle(.reverse))
        let room = model.width - DisplayWidth.columns(right) - 1
        // Cut at a word's end: never half a word.
        screen.write(DisplayWidth.truncateAtWord(" " + parts.joined(separator: " · "), to: room), row: row, column: 0, limit: room, style: CellStyle(.reverse))
        if status.lastError != nil {
            // The error part in the error colour (nothing under NO_COLOR: reverse stays).
            screen.paint(row: row, column: 1 + DisplayWidth.columns(parts.dropLast().joined(separator: " · ") + " · "), count: nil,
                         style: CellStyle(.reverse, color: .error))
            screen.paint(row: row, column: model.width - DisplayWidth.columns(right), style: CellStyle(.reverse))
        }
        screen.write(right, row: row, column: model.width - DisplayWidth.columns(right), style: CellStyle(.reverse))
    }
}
