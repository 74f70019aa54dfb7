import Foundation
import ReelTestSupport
import Testing

@testable import Reel

/// The once-a-day notes' file, as many processes share it (a test run's commands, several
/// shells): a note recorded for one data directory is never lost to another's at the same time.
@Suite struct ShownNoticesTests {
    @Test func notesRecordedAtOnceForManyDataDirectoriesAreAllKept() async throws {
        let state = temporaryDirectory()
        let environment = ["XDG_STATE_HOME": state]
        let day = ShownNotices.today()
        let directories = (0..<64).map { "/data/\($0)" }
        // Each on a thread of its own, as processes would be.
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for directory in directories {
                group.addTask { try await offThread { ShownNotices(environment: environment, dataDirectory: directory).firstShowing("sample", on: day) } }
            }
            for try await first in group { #expect(first) }
        }
        for directory in directories {
            #expect(!ShownNotices(environment: environment, dataDirectory: directory).firstShowing("sample", on: day), "\(directory)'s note was lost")
        }
    }

    @Test func daysAZoneApartAreKeptAndOldDaysDropped() throws {
        let environment = ["XDG_STATE_HOME": temporaryDirectory()]
        let utc = ShownNotices(environment: environment, dataDirectory: "/data/utc")
        let tokyo = ShownNotices(environment: environment, dataDirectory: "/data/tokyo")
        #expect(utc.firstShowing("sample", on: "2026-11-26"))
        #expect(utc.firstShowing("sample", on: "2026-11-27"))
        // A process in Tokyo, already a day ahead: the UTC notes stay recorded.
        #expect(tokyo.firstShowing("sample", on: "2026-11-28"))
        #expect(!utc.firstShowing("sample", on: "2026-11-27"), "a note of the day before was dropped for another zone's day")
        // Two days on, the old days go.
        #expect(utc.firstShowing("sample", on: "2026-11-29"))
        let days = try String(contentsOfFile: utc.path, encoding: .utf8).split(separator: "\n").map { String($0.prefix(10)) }
        #expect(days == ["2026-11-28", "2026-11-29"], "\(days)")
        #expect(ShownNotices.day(before: "2026-03-01", by: 2) == "2026-02-27")
        #expect(ShownNotices.day(before: "2027-01-01", by: 2) == "2026-12-30")
    }
}
