import Foundation
import ReelTestSupport
import Testing

@Suite struct BenchmarkSmokeTests {
    /// The benchmark harness (C baseline included) runs and prints its table; figures are not judged here.
    @Test func theBenchmarkHarnessRunsInQuickMode() throws {
        let output = try Harness.run(Harness.binaries + "/reel-bench", ["run", "--quick", "--repeats", "2"])
        #expect(output.status == 0, "\(output.stderr)")
        for row in ["1. batched append", "2. single append p50", "3. 64 concurrent appenders", "4. full verify", "full read-and-open"] {
            #expect(output.stdout.contains(row))
        }
        // Repeated runs: the median, and a slowest / fastest row under each repeated figure.
        #expect(output.stdout.components(separatedBy: "slowest / fastest of 2").count - 1 == 3, "\(output.stdout)")
    }

    /// `reel-bench saved --quick` runs the real `reel` against an in-process fake server; the
    /// server must see every title once cold and nothing warm. Times are not judged here.
    @Test func theSavedListBenchmarkRunsInQuickMode() throws {
        let output = try Harness.run(Harness.binaries + "/reel-bench", ["saved", "--quick"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("1. reel saved, 40 titles, empty cache"))
        #expect(output.stdout.contains("40 / ") && output.stdout.contains("2. reel saved, 40 titles, from the cache"))
        let warmRequests = output.stdout.split(separator: "\n").last { $0.contains("requests the server saw") && !$0.contains("/ most") }
        #expect(warmRequests?.split(separator: " ").contains("0") == true, "\(output.stdout)")
    }

    /// `reel-bench ledger --quick` times `reel saved` and `reel fav add` with the sample catalog,
    /// and `reel saved` from a warm cache of the in-process fake server, which must see nothing.
    @Test func theLedgerBenchmarkRunsInQuickMode() throws {
        let output = try Harness.run(Harness.binaries + "/reel-bench", ["ledger", "--quick"])
        #expect(output.status == 0, "\(output.stderr)")
        for row in ["1. projections rebuild", "2. reel saved, 500 favorites", "with TMDb, details from a warm cache", "3. reel fav add"] {
            #expect(output.stdout.contains(row), "\(row): \(output.stdout)")
        }
        let warmRequests = output.stdout.split(separator: "\n").first { $0.contains("requests the server saw") }
        #expect(warmRequests?.split(separator: " ").contains("0") == true, "\(output.stdout)")
    }
}
