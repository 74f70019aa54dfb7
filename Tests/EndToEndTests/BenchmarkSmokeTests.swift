import Foundation
import ReelTestSupport
import Testing

@Suite struct BenchmarkSmokeTests {
    /// The benchmark harness (C baseline included) runs and prints its table; figures are not judged here.
    @Test func theBenchmarkHarnessRunsInQuickMode() throws {
        let output = try Harness.run(Harness.binaries + "/reel-bench", ["run", "--quick"])
        #expect(output.status == 0, "\(output.stderr)")
        for row in ["1. batched append", "2. single append p50", "3. 64 concurrent appenders", "4. full verify", "full read-and-open"] {
            #expect(output.stdout.contains(row))
        }
    }
}
