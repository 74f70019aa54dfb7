import Presentation
import Reel

/// The Settings tab: name, photo, language, account and delete as rows (the one chosen
/// reversed, a field open on it while typing), a line saying what the keys do there, and below:
/// a picker while one is open, what a deletion destroyed, or where the data lives and TMDb's
/// attribution (`reel about`). The account's photo, when it has one and the terminal draws
/// pictures, is at the right of the rows (`PictureLayout.photo`).
enum SettingsView {
    static func draw(_ model: AppModel, into screen: inout ScreenBuffer) {
        let settings = model.settings
        screen.write("Settings", row: 1, column: 1, style: CellStyle(.bold))
        if let pending = settings.pending {
            screen.write(pending, row: 1, column: model.width - 1 - DisplayWidth.columns(pending), style: CellStyle(.dim))
        }
        guard let info = settings.info else {
            let text = settings.error.map { "the settings failed: \($0) \(ScreenBuffer.retries)" } ?? "loading…"
            screen.writeWrapped(text, row: 3, column: 2, limit: model.width - 3, lines: 4, style: settings.error == nil ? CellStyle(.dim) : CellStyle(color: .error))
            return
        }
        for row in SettingsState.Row.allCases {
            drawRow(row, info: info, model: model, into: &screen)
        }
        for (offset, line) in prompt(model).enumerated() {
            screen.write(line, row: 9 + offset, column: 2, limit: model.width - 3, style: CellStyle(.dim))
        }
        if let picker = settings.picker {
            drawPicker(picker, model: model, into: &screen)
        } else if let deleted = settings.deleted {
            // Wrapped, not cut: a stream id is long, and this is the record of what was destroyed.
            var y = 12
            for (offset, line) in deleted.enumerated() {
                for part in DisplayWidth.wrap(line, width: model.width - 3, breakingWords: true) {
                    screen.write(part, row: y, column: 2, style: offset == 0 ? CellStyle(.bold) : .plain)
                    y += 1
                }
            }
        } else {
            drawAbout(info, model: model, into: &screen)
        }
    }

    private static func drawRow(_ row: SettingsState.Row, info: SettingsInfo, model: AppModel, into screen: inout ScreenBuffer) {
        let y = 3 + row.rawValue
        let selected = model.settings.row == row && model.settings.picker == nil
        let base = selected ? CellStyle([.reverse]) : CellStyle.plain
        let end = PictureLayout.settingsTextEnd(model)
        if selected {
            screen.paint(row: y, count: end, style: base)
            screen.write("›", row: y, column: 0, style: base)
        }
        let label: String
        var value: String
        switch row {
        case .name: (label, value) = ("Name", info.name ?? "(not set)")
        case .photo: (label, value) = ("Photo", info.photo ?? "(none)")
        case .language: (label, value) = ("Language", "\(info.language) (\(info.languageName))")
        case .account: (label, value) = ("Account", "\(model.status.account)   (\(info.accounts.count) open in this data directory)")
        case .delete:
            let open = info.accounts.contains(model.status.account)
            (label, value) = ("Delete", open ? "delete the account '\(model.status.account)' for good…" : "nothing to delete: '\(model.status.account)' has no account")
        }
        switch (row, model.settings.editing) {
        case (.name, .name(let field)?), (.photo, .photo(let field)?), (.account, .newAccount(let field)?), (.delete, .confirmDelete(let field)?):
            value = field.text + "▏"
        default: break
        }
        screen.write(label, row: y, column: 2, style: selected ? base : CellStyle(.dim))
        screen.write(value, row: y, column: 14, limit: end - 14, style: base)
    }

    /// What the keys do where the cursor is (or the field asks for).
    private static func prompt(_ model: AppModel) -> [String] {
        let account = model.status.account
        switch model.settings.editing {
        case .name?: return ["the name shown for the account, 1 to 100 characters · enter saves · esc cancels"]
        case .photo?: return ["a JPEG or PNG file, up to 5 MB; empty removes the photo · enter saves · esc cancels"]
        case .newAccount?: return ["the handle of the account to switch to (its first change makes it) · enter switches · esc cancels"]
        case .confirmDelete?:
            return [
                "This deletes the account '\(account)' for good: its saved list, settings and",
                "history become unreadable. Type the handle, then enter (esc cancels).",
            ]
        case nil:
            if model.settings.picker != nil { return ["type to narrow · ↓ ↑ choose · enter picks · esc closes"] }
            return ["↓ ↑ j k choose · enter changes · r reads them again"]
        }
    }

    private static func drawPicker(_ picker: Picker, model: AppModel, into screen: inout ScreenBuffer) {
        let title = picker.purpose == .language ? "Language" : "Account"
        let used = screen.write("\(title) · type to narrow: " + picker.filter.text + "▏", row: 11, column: 2, style: CellStyle(.bold))
        if picker.purpose == .language, picker.items.contains(where: { $0.label.hasSuffix(" *") }) {
            // Said once, not on every row.
            screen.write("   * the sample catalog shows English", row: 11, column: 2 + used, limit: model.width - 3 - used, style: CellStyle(.dim))
        }
        let visible = SettingsUpdate.pickerRows(model)
        if picker.shown.isEmpty { screen.write("nothing matches", row: 12, column: 4, style: CellStyle(.dim)) }
        for offset in 0..<visible {
            let index = picker.cursor.top + offset
            guard index < picker.shown.count else { break }
            let y = 12 + offset
            let selected = index == picker.cursor.position
            let style = selected ? CellStyle([.reverse]) : CellStyle.plain
            if selected {
                screen.paint(row: y, column: 2, count: model.width - 3, style: style)
                screen.write("›", row: y, column: 2, style: style)
            }
            screen.write(picker.shown[index].label, row: y, column: 4, limit: model.width - 5, style: style)
        }
    }

    private static func drawAbout(_ info: SettingsInfo, model: AppModel, into screen: inout ScreenBuffer) {
        screen.write("About", row: 11, column: 1, style: CellStyle(.bold))
        for (offset, item) in info.about.enumerated() {
            screen.write(item.value, row: 12 + offset, column: 2, style: CellStyle(.dim))
            screen.write(item.label, row: 12 + offset, column: 18, limit: model.width - 19)
        }
        let y = 13 + info.about.count
        screen.write(AboutReport.dataSource, row: y, column: 2, limit: model.width - 3)
        screen.write(AboutReport.attribution, row: y + 1, column: 2, limit: model.width - 3)
    }
}
