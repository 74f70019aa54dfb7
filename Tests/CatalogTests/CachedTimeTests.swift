import Catalog
import Foundation
import Testing

/// When a cached copy was stored, in the words beside "showing the copy cached …".
@Suite struct CachedTimeTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// 2026-12-03 10:42:30 UTC, in microseconds.
    static let morning: Int64 = 1_796_294_550 * 1_000_000
    static func phrase(_ stored: Int64, _ now: Int64, _ zone: TimeZone = utc) -> String {
        CachedTime.phrase(storedAt: stored, now: now, timeZone: zone)
    }

    @Test func todayIsTheTimeOfDay() {
        #expect(Self.phrase(Self.morning, Self.morning + 3_600 * 1_000_000) == "at 10:42")
        #expect(Self.phrase(Self.morning, Self.morning) == "at 10:42")
    }

    @Test func theDayBeforeIsYesterday() {
        #expect(Self.phrase(Self.morning - 12 * 3_600 * 1_000_000, Self.morning) == "yesterday at 22:42")
    }

    @Test func olderIsTheDayAndTheYearWhenItIsNotThisOne() {
        #expect(Self.phrase(Self.morning - 5 * 86_400 * 1_000_000, Self.morning) == "on 28 Nov")
        #expect(Self.phrase(Self.morning - 365 * 86_400 * 1_000_000, Self.morning) == "on 3 Dec 2025")
    }

    @Test func theDayIsTheLocalOne() {
        // 10:42 UTC is 23:42 in Auckland (UTC+13 in December): ten minutes on, the same day
        // there; half an hour on, the next.
        let auckland = TimeZone(identifier: "Pacific/Auckland")!
        #expect(Self.phrase(Self.morning, Self.morning + 10 * 60 * 1_000_000, auckland) == "at 23:42")
        #expect(Self.phrase(Self.morning, Self.morning + 30 * 60 * 1_000_000, auckland) == "yesterday at 23:42")
        #expect(Self.phrase(Self.morning, Self.morning + 30 * 60 * 1_000_000) == "at 10:42", "in UTC, still the same day")
    }

    @Test func aClockThatWentBackIsStillToday() {
        #expect(Self.phrase(Self.morning, Self.morning - 60 * 1_000_000) == "at 10:42")
    }
}
