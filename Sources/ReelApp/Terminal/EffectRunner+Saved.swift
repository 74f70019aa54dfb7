import Reel

/// The Saved tab's effects, on the use cases `reel saved`, `reel history` and `reel fav` call.
extension EffectRunner {
    /// The message an effect comes back with; `nil` for `.watch`, which the driver runs itself
    /// (`watch(post:)`), as it says more than once.
    func run(_ effect: SavedEffect) async -> AppMessage? {
        let handle = account.value
        switch effect {
        case .load(let request):
            do {
                // The account the app shows is the one it binds (its changes reach it only).
                _ = try account.bound(application)
                let report = try await application.savedList(
                    of: handle, request.query, progress: progress(request, "details", handle), omdbProgress: progress(request, "OMDb's scores", handle))
                return .saved(.loaded(request, rows: report.items.map(TitleRow.init), total: report.total, language: report.language, account: handle.value))
            } catch {
                return .saved(.failed(request, message: Self.describe(error), account: handle.value))
            }
        case .loadHistory:
            do {
                let report = try await application.history(of: handle)
                let lines = report.entries.map { entry in
                    HistoryLine(
                        version: entry.streamVersion, position: entry.position, wall: clock.wall(entry.recordedAt),
                        time: clock.short(entry.recordedAt), summary: entry.summary(title: report.title(entry)))
                }
                return .saved(.historyLoaded(lines, account: handle.value))
            } catch {
                return .saved(.historyFailed(Self.describe(error), account: handle.value))
            }
        case .change(let change, let undoing):
            do {
                let report = try await changing { account in
                    change.action == .add
                        ? try await application.addFavorites([change.key], for: account, requestKey: nil)
                        : try await application.removeFavorites([change.key], for: account, requestKey: nil)
                }
                // What was appended, and what the core noted (saved without checking, say).
                let said = report.command.outcomes.filter { $0.mediaKey != nil }.map(report.message).joined(separator: "; ")
                    + report.notes.map { " (\($0))" }.joined()
                return .saved(.changed(change, undoing: undoing, message: said, account: handle.value))
            } catch {
                return .saved(.changeFailed(change, undoing: undoing, message: Self.describe(error)))
            }
        case .watch:
            return nil
        }
    }

    /// Tells the app how far the answer to `request` has come, some fifty times at most.
    private func progress(_ request: SavedRequest, _ what: String, _ handle: AccountHandle) -> (Int, Int) -> Void {
        { [post] done, total in
            guard LoadProgress.isWorthTelling(done: done, total: total) else { return }
            post(.saved(.progress(request, LoadProgress(what, done: done, total: total), account: handle.value)))
        }
    }

    /// Follows the account's changes, made here or by another process, until cancelled: each
    /// is said as `accountChanged`. A failure is said once, and the watch starts again.
    func watch(post: @Sendable (AppMessage) -> Void) async {
        let handle = account.value
        while !Task.isCancelled {
            do {
                for try await _ in application.accountChanges(of: handle) {
                    post(.saved(.accountChanged(account: handle.value)))
                }
                return
            } catch is CancellationError {
                return
            } catch {
                post(.notice("following changes to the account failed: \(Self.describe(error))"))
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
