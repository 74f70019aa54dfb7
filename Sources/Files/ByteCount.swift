import Failures
/// A number of bytes as people read it in a message: digits grouped by thousands, and the round
/// unit it is a whole number of, if any.
public enum ByteCount {
    /// "5,000,000 bytes (5 MB)", "536,870,912 bytes (512 MiB)", "999 bytes".
    public static func words(_ count: Int) -> String {
        let exact = grouped(count) + " bytes"
        if count % 1_000_000 == 0 { return exact + " (\(count / 1_000_000) MB)" }
        if count % (1 << 20) == 0 { return exact + " (\(count >> 20) MiB)" }
        if count % (1 << 10) == 0 { return exact + " (\(count >> 10) KiB)" }
        return exact
    }

    /// `27,917`: digits grouped by thousands (a minus sign first for a negative number).
    public static func grouped(_ number: Int) -> String { GroupedDigits.of(number) }
}
