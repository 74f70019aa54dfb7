import Glibc

/// The benchmark's view of the loop (`reel-bench ui`): when `REEL_UI_TRACE` names a file (a pipe
/// such as `/dev/fd/3` too), each turn of the loop that read keys or drew appends one line,
///
///     frame keys=1 messages=1 drawn=1 read=81234567890 flushed=81234901234 rows=100 preview=1
///
/// `read` when `poll` returned (the keys were waiting), `flushed` after curses wrote the screen
/// (both CLOCK_MONOTONIC nanoseconds, comparable across processes), the keys and all messages the
/// turn handled, whether it drew, how many rows the current tab lists (0 while it loads), and
/// whether the preview's poster is drawn on the screen (the cursor rested, the picture came).
/// Unset, nothing is opened and the loop does nothing more.
struct FrameTrace {
    private let descriptor: Int32

    /// The trace the environment asks for, if it does and the file opens.
    init?(_ environment: [String: String]) {
        guard let path = environment["REEL_UI_TRACE"], !path.isEmpty else { return nil }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// One turn of the loop: woken at `read`, the screen flushed now (when `drawn`).
    func record(keys: Int, messages: Int, drawn: Bool, read: UInt64, model: AppModel) {
        guard keys > 0 || drawn else { return }
        let rows =
            switch model.tab {
            case .movies: model.movies.rows.count
            case .series: model.series.rows.count
            case .saved: model.saved.rows.count
            case .search, .settings: 0
            }
        var preview = 0
        if let box = PreviewPane.posterBox(model), case .drawn? = model.pictures[box.key] { preview = 1 }
        let line = "frame keys=\(keys) messages=\(messages) drawn=\(drawn ? 1 : 0) read=\(read) flushed=\(Self.now()) rows=\(rows) preview=\(preview)\n"
        var bytes = Array(line.utf8)
        _ = write(descriptor, &bytes, bytes.count)
    }

    func close() { _ = Glibc.close(descriptor) }
}
