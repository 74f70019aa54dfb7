public import Foundation

/// When a cached answer was stored, as a person reads it beside "showing the copy cached …": the
/// time of day when it was today ("at 10:42"), "yesterday at 22:10", else the day ("on 28 Nov",
/// with the year when it is not this year's). Local time; English month names, as every other
/// word Reel prints.
public enum CachedTime {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `storedAt` and `now` in microseconds since 1970.
    public static func phrase(storedAt: Int64, now: Int64, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let stored = Date(timeIntervalSince1970: Double(storedAt) / 1_000_000)
        let today = Date(timeIntervalSince1970: Double(max(now, storedAt)) / 1_000_000)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: stored)
        let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        if calendar.isDate(stored, inSameDayAs: today) { return "at \(clock)" }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: today), calendar.isDate(stored, inSameDayAs: yesterday) {
            return "yesterday at \(clock)"
        }
        let day = "on \(parts.day ?? 1) \(months[((parts.month ?? 1) - 1) % 12])"
        return calendar.component(.year, from: today) == parts.year ? day : "\(day) \(parts.year ?? 1970)"
    }
}
