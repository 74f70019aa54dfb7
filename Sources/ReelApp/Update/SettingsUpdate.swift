import Reel

/// The Settings tab's keys and answers: rows chosen with the arrows and opened with enter (a
/// field for the name, the photo, a new account's handle; a picker for the language and the
/// account), and the delete confirmation, which takes the handle typed again.
enum SettingsUpdate {
    /// Rows a picker shows.
    static func pickerRows(_ model: AppModel) -> Int { max(1, model.height - 13) }

    static func fill(_ model: inout AppModel) -> [AppEffect] {
        guard model.settings.info == nil, !model.settings.loading, model.settings.error == nil else { return [] }
        model.settings.loading = true
        return [.settings(.load)]
    }

    // MARK: - Keys

    /// The tab's own keys; `nil` for one it leaves to the app (tabs, `q`, `?`).
    static func key(_ key: Key, _ model: inout AppModel) -> [AppEffect]? {
        if model.settings.deleted != nil, model.settings.editing == nil, model.settings.picker == nil, key == .escape || key == .enter {
            model.settings.deleted = nil
            return []
        }
        if let editing = model.settings.editing { return typed(key, editing, &model) }
        if let picker = model.settings.picker { return picked(key, picker, &model) }
        let rows = SettingsState.Row.allCases
        switch key {
        case .down, .character("j"):
            model.settings.row = rows[min(rows.count - 1, model.settings.row.rawValue + 1)]
        case .up, .character("k"):
            model.settings.row = rows[max(0, model.settings.row.rawValue - 1)]
        case .enter:
            open(model.settings.row, &model)
        case .character("r"):
            model.settings.error = nil
            model.settings.info = nil
            return fill(&model)
        default:
            return nil
        }
        return []
    }

    private static func open(_ row: SettingsState.Row, _ model: inout AppModel) {
        guard let info = model.settings.info else {
            model.status.note = "the settings are loading…"
            return
        }
        switch row {
        // Longer than a name may be, so the core says why (100 at most), not a silent cut.
        case .name: model.settings.editing = .name(TextField(info.name ?? "", limit: 1_000))
        case .photo: model.settings.editing = .photo(TextField(limit: 4_096))
        case .delete:
            // A handle with no open account (never used, or deleted) has nothing to delete.
            guard info.accounts.contains(model.status.account) else {
                (model.status.note, model.status.lastError) = ("'\(model.status.account)' has no account to delete", nil)
                return
            }
            model.settings.editing = .confirmDelete(TextField(limit: 64))
        case .language:
            // The list has languages, the setting may carry a region (`en-US`): the cursor opens
            // on the language it names.
            let language = info.languages.contains { $0.value == info.language } ? info.language : String(info.language.prefix { $0 != "-" })
            model.settings.picker = Picker(.language, items: info.languages, selected: language, visible: pickerRows(model))
        case .account:
            let items = info.accounts.map { PickerItem($0, $0) } + [PickerItem("", "a new account…")]
            model.settings.picker = Picker(.account, items: items, selected: model.status.account, visible: pickerRows(model))
        }
    }

    /// Keys while a field is open: enter does what the field is for, esc closes it.
    private static func typed(_ key: Key, _ editing: SettingsState.Editing, _ model: inout AppModel) -> [AppEffect]? {
        switch key {
        case .escape:
            model.settings.editing = nil
            if case .confirmDelete = editing { model.status.note = "cancelled; nothing deleted" }
            return []
        case .enter:
            model.settings.editing = nil
            return entered(editing, &model)
        case .tab, .backTab:
            return nil
        default:
            if let field = editing.field.typed(key) { model.settings.editing = editing.with(field) }
            return []
        }
    }

    private static func entered(_ editing: SettingsState.Editing, _ model: inout AppModel) -> [AppEffect] {
        let text = editing.field.text
        switch editing {
        case .name:
            do {
                _ = try ProfileName(typed: text)
            } catch {
                model.status.lastError = error.description
                return []
            }
            model.settings.pending = "saving the name…"
            return [.settings(.rename(text))]
        case .photo:
            model.settings.pending = text.isEmpty ? "removing the photo…" : "saving the photo…"
            return [.settings(.photo(path: text.isEmpty ? nil : text))]
        case .newAccount:
            return openAccount(typed: text, &model)
        case .confirmDelete:
            let account = model.status.account
            guard !text.isEmpty else {
                model.status.note = "cancelled; nothing deleted"
                return []
            }
            guard text == account else {
                model.status.lastError = "the handle typed does not match '\(account)'; nothing deleted"
                return []
            }
            model.settings.pending = "deleting the account '\(account)'…"
            return [.settings(.deleteAccount(account))]
        }
    }

    /// Keys while a picker is open: typing narrows it, arrows move, enter chooses, esc closes.
    private static func picked(_ key: Key, _ picker: Picker, _ model: inout AppModel) -> [AppEffect]? {
        var picker = picker
        let visible = pickerRows(model)
        switch key {
        case .escape:
            model.settings.picker = nil
        case .enter:
            model.settings.picker = nil
            guard let item = picker.current else { return [] }
            switch picker.purpose {
            case .language:
                guard item.value != model.settings.info?.language else { return [] }
                model.settings.pending = "switching the language…"
                return [.settings(.language(item.value))]
            case .account:
                guard item.value.isEmpty else { return switchAccount(item.value, &model) }
                // `a new account…`: the handle typed into the picker opens it; else a field asks for one.
                let typed = picker.filter.text
                guard !typed.isEmpty else {
                    model.settings.editing = .newAccount(TextField(limit: 64))
                    return []
                }
                return openAccount(typed: typed, &model)
            }
        case .tab, .backTab:
            return nil
        default:
            if let field = picker.filter.typed(key) {
                picker.narrow(to: field, visible: visible)
            } else if let moved = picker.cursor.navigated(by: key, count: picker.shown.count, visible: visible, letters: false) {
                picker.cursor = moved
            }
            model.settings.picker = picker
        }
        return []
    }

    /// A handle typed (the new-account field, the account picker's filter): switched to when it
    /// is one, else the status line says why.
    private static func openAccount(typed: String, _ model: inout AppModel) -> [AppEffect] {
        do {
            return switchAccount(try AccountHandle(typed).value, &model)
        } catch {
            model.status.lastError = error.description
            return []
        }
    }

    private static func switchAccount(_ handle: String, _ model: inout AppModel) -> [AppEffect] {
        guard handle != model.status.account else { return [] }
        model.settings.pending = "switching to '\(handle)'…"
        return [.settings(.switchAccount(handle))]
    }

    // MARK: - Answers

    static func message(_ message: SettingsMessage, _ model: inout AppModel) -> [AppEffect] {
        switch message {
        case .loaded(let info, let account):
            guard account == model.status.account else { return [] }
            model.settings.loading = false
            model.settings.info = info
            model.settings.error = nil
            model.status.language = info.language
        case .failed(let why):
            // The settings that failed to load say so on the tab (r asks again); a change that
            // failed leaves them shown, and says why on the status line.
            if model.settings.loading { model.settings.error = why }
            model.settings.loading = false
            model.settings.pending = nil
            model.status.lastError = why
        case .changed(let said, let account):
            guard account == model.status.account else { return [] }
            model.settings.pending = nil
            model.status.note = said
            model.status.lastError = nil
            return reload(&model)
        case .languageSwitched(let tag, let said, let account):
            guard account == model.status.account else { return [] }
            model.settings.pending = nil
            model.status.note = said
            model.status.lastError = nil
            model.status.language = tag
            // Every list is read again in the new language (titles and genres), each when it shows.
            model.movies.restart(model.movies.query)
            model.series.restart(model.series.query)
            let searching = SearchUpdate.accountChanged(&model)
            var saved = SavedList()
            saved.request = model.saved.request
            saved.request.genres = []
            saved.undo = model.saved.undo
            saved.filter = model.saved.filter
            model.saved = saved
            return searching + reload(&model)
        case .switched(let account):
            model.status.account = account
            model.status.note = "the account is '\(account)' now"
            return restart(&model)
        case .deleted(let lines, let account):
            guard account == model.status.account else { return [] }
            let effects = restart(&model)
            model.settings.deleted = lines
            model.status.note = lines.first
            return effects
        }
        return []
    }

    private static func reload(_ model: inout AppModel) -> [AppEffect] {
        model.settings.info = nil
        model.settings.loading = false
        model.settings.error = nil
        return fill(&model)
    }

    /// Another account (or the same, deleted): nothing read for the one before stays.
    private static func restart(_ model: inout AppModel) -> [AppEffect] {
        model.movies.restart(model.movies.query)
        model.series.restart(model.series.query)
        let searching = SearchUpdate.accountChanged(&model)
        model.saved = SavedList()
        let row = model.settings.row
        model.settings = SettingsState()
        model.settings.row = row
        model.status.lastError = nil
        return [.loadStatus, .saved(.watch)] + searching + fill(&model)
    }
}
