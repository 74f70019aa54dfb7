/// One line of `reel ui`'s frame trace (`REEL_UI_TRACE`, see ReelApp's FrameTrace):
/// `frame keys=1 messages=1 drawn=1 read=… flushed=… rows=…`.
struct TraceFrame {
    let keys: Int
    let messages: Int
    let drawn: Bool
    /// CLOCK_MONOTONIC nanoseconds: the loop woke with the input waiting; the screen was flushed.
    let read: UInt64
    let flushed: UInt64
    /// Rows the current tab lists (0 while it loads).
    let rows: Int
    /// The preview's poster is drawn on this screen.
    let preview: Bool

    init(_ line: String) throws {
        var fields: [Substring: UInt64] = [:]
        let words = line.split(separator: " ")
        for word in words.dropFirst() {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = UInt64(parts[1]) { fields[parts[0]] = value }
        }
        guard words.first == "frame", let keys = fields["keys"], let messages = fields["messages"], let drawn = fields["drawn"],
            let read = fields["read"], let flushed = fields["flushed"], let rows = fields["rows"]
        else { throw BenchmarkError("not a frame trace line: \(line)") }
        self.keys = Int(keys)
        self.messages = Int(messages)
        self.drawn = drawn == 1
        self.read = read
        self.flushed = flushed
        self.rows = Int(rows)
        preview = fields["preview"] == 1
    }
}
