/// Time travel on the Saved tab: `[` and `]` step the list through the account's stream
/// versions (from now to the one before the newest, which is now, back to the first, and forward
/// again to now), `t` jumps to
/// a typed point, `esc` comes back to now. The list at a point is the core's (`reel saved
/// --as-of v12`), asked for as the request's `asOf`.
enum TimeTravel {
    /// One version back (`-1`) or forward (`+1`).
    static func step(_ delta: Int, _ model: inout AppModel) -> [AppEffect] {
        let saved = model.saved
        guard let first = saved.history.first?.version, let last = saved.history.last?.version else {
            model.status.note = saved.historyLoaded ? "no history yet: nothing was saved or changed" : "the history is loading…"
            return []
        }
        switch (saved.request.asOf, delta < 0) {
        case (nil, true):
            // The newest version is what now shows: one step back is the one before it.
            guard last > first else {
                model.status.note = "v\(last) is the account's first version"
                return []
            }
            return travel(to: last - 1, &model)
        case (nil, false):
            model.status.note = "this is now; [ steps back through the history"
            return []
        case (let version?, true):
            guard version > first else {
                model.status.note = "v\(version) is the account's first version"
                return []
            }
            return travel(to: version - 1, &model)
        case (let version?, false):
            return travel(to: version + 1 >= last ? nil : version + 1, &model)
        }
    }

    /// `t`'s field, entered: the latest version at or before the point typed.
    static func go(_ text: String, _ model: inout AppModel) -> [AppEffect] {
        guard let point = TypedPoint(text) else {
            model.status.lastError = TypedPoint.expected
            return []
        }
        let history = model.saved.history
        guard let last = history.last?.version else {
            model.status.lastError = "no history to travel through yet"
            return []
        }
        let line: HistoryLine?
        switch point {
        case .version(let version):
            guard version <= last else {
                model.status.lastError = "the account has reached v\(last); v\(version) is past its end"
                return []
            }
            line = history.last { $0.version <= version }
        case .position(let position):
            line = history.last { $0.position <= position }
        case .wall(let wall):
            line = history.last { $0.wall <= wall }
        }
        guard let line else {
            model.status.lastError = "the account had no events at \(text) or before"
            return []
        }
        return travel(to: line.version, &model)
    }

    /// The list as of `version` (`nil`: now), asked for; the history's cursor on it.
    static func travel(to version: UInt64?, _ model: inout AppModel) -> [AppEffect] {
        model.saved.request.asOf = version
        model.saved.cursor = ListCursor()
        model.status.lastError = nil
        model.status.note = nil
        if let version, let index = model.saved.history.firstIndex(where: { $0.version == version }) {
            model.saved.historyCursor = model.saved.historyCursor.moved(
                to: index, count: model.saved.history.count, visible: SavedUpdate.historyRows(model))
        }
        return SavedUpdate.load(&model)
    }
}
