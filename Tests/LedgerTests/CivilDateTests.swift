import Ledger
import Testing

/// The one civil-date algorithm Reel has (`UTCTime.days`), used by `UTCTime.parse`, the CLI's
/// `--as-of` and the import formats' dates.
@Suite struct CivilDateTests {
    @Test func daysAreCountedFromTheEpochAndMatchIso() {
        #expect(UTCTime.days(year: 1970, month: 1, day: 1) == 0)
        #expect(UTCTime.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(UTCTime.days(year: 1969, month: 12, day: 31) == -1)
        for days: Int64 in [-1, 0, 59, 11_016, 20_000, 2_932_896] {
            let text = UTCTime.iso(days * 86_400_000_000)
            #expect(UTCTime.parse(text) == days * 86_400_000_000, "\(text)")
        }
    }

    @Test func aDayTheMonthDoesNotHaveIsNoDate() {
        #expect(UTCTime.days(year: 2026, month: 2, day: 31) == nil)
        #expect(UTCTime.days(year: 2026, month: 2, day: 29) == nil)
        #expect(UTCTime.days(year: 2024, month: 2, day: 29) != nil)
        #expect(UTCTime.days(year: 1900, month: 2, day: 29) == nil)
        #expect(UTCTime.days(year: 2000, month: 2, day: 29) != nil)
        #expect(UTCTime.days(year: 2026, month: 4, day: 31) == nil)
        #expect(UTCTime.days(year: 2026, month: 13, day: 1) == nil)
        #expect(UTCTime.days(year: 2026, month: 1, day: 0) == nil)
        #expect(UTCTime.parse("2026-02-31T00:00:00Z") == nil)
    }
}
