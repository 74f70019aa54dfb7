import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

@Suite struct BenchmarkSmokeTests {
    /// The benchmark harness (C baseline included) runs and prints its table; figures are not judged here.
    @Test func theBenchmarkHarnessRunsInQuickMode() async throws {
        let output = try await Harness.run(Harness.binaries + "/reel-bench", ["run", "--quick", "--repeats", "2"])
        #expect(output.status == 0, "\(output.stderr)")
        for row in ["1. batched append", "2. single append p50", "3. 64 concurrent appenders", "4. full verify", "full read-and-open"] {
            #expect(output.stdout.contains(row))
        }
        // Repeated runs: the median, and a slowest / fastest row under each repeated figure.
        #expect(output.stdout.components(separatedBy: "slowest / fastest of 2").count - 1 == 3, "\(output.stdout)")
    }

    /// `reel-bench images --quick` draws a poster in each mode and runs the chafa command beside
    /// it; every row must be there with a figure. Times are not judged here.
    @Test func theImageBenchmarkRunsInQuickMode() async throws {
        let output = try await Harness.run(Harness.binaries + "/reel-bench", ["images", "--quick"])
        #expect(output.status == 0, "\(output.stderr)")
        for row in ["symbols: JPEG to terminal bytes", "sixel: JPEG to terminal bytes", "kitty graphics: JPEG to terminal bytes"] {
            let line = output.stdout.split(separator: "\n").first { $0.hasPrefix(row) }
            #expect(line.map { !$0.contains("–") } == true, "\(output.stdout)")
        }
    }

    /// `reel-bench posters --quick`: first fetches against the fake server, warm lookups, and
    /// `reel show` with and without the poster in a pseudo-terminal; every row has figures.
    @Test func thePosterBenchmarkRunsInQuickMode() async throws {
        let output = try await Harness.run(Harness.binaries + "/reel-bench", ["posters", "--quick"])
        #expect(output.status == 0, "\(output.stderr)")
        for row in ["first w342 fetch (ms)", "warm: image client (ms)", "warm: cache lookup (ms)", "reel show, poster (ms)"] {
            let line = output.stdout.split(separator: "\n").first { $0.hasPrefix(row) }
            let cells = line.map { $0.dropFirst(row.count).split(separator: " ") } ?? []
            #expect(cells.first.flatMap { Double($0) } != nil, "\(row): \(output.stdout)")
        }
    }

    /// `reel-bench saved --quick` runs the real `reel` against an in-process fake server; the
    /// server must see every title once cold and nothing warm. Times are not judged here.
    @Test func theSavedListBenchmarkRunsInQuickMode() async throws {
        let output = try await Harness.run(Harness.binaries + "/reel-bench", ["saved", "--quick"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("1. reel saved, 40 titles, empty cache"))
        #expect(output.stdout.contains("40 / ") && output.stdout.contains("2. reel saved, 40 titles, from the cache"))
        let warmRequests = output.stdout.split(separator: "\n").last { $0.contains("requests the server saw") && !$0.contains("/ most") }
        #expect(warmRequests?.split(separator: " ").contains("0") == true, "\(output.stdout)")
    }

    /// `reel-bench web --quick` signs headless Chromium in to the real `reel serve` with a link
    /// and times the Movies and Saved tabs, weighs the page and runs wrk on the poster route:
    /// every figure must be there. Times are not judged here.
    @Test func theWebBenchmarkRunsInQuickMode() async throws {
        let ready = try await Harness.run("python3", ["-c", "import playwright"]).status == 0 && FileManager.default.fileExists(atPath: "/usr/bin/chromium")
        if !ready {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "Chromium or Playwright is not installed: run Tools/install-browser.sh")
            return
        }
        let output = try await Harness.run(Harness.binaries + "/reel-bench", ["web", "--quick"])
        #expect(output.status == 0, "\(output.stderr.suffix(2_000))")
        for row in ["first render, Movies (ms)", "first render, Saved with 100 titles (ms)", "page weight, HTML + CSS + JS (KB)", "(warm cache)", "(baseline)"] {
            #expect(output.stdout.contains(row), "\(row): \(output.stdout)")
        }
        let weight = output.stdout.split(separator: "\n").first { $0.hasPrefix("page weight") }
        let kilobytes = weight?.split(separator: " ").compactMap { Double($0) }.first ?? 0
        #expect(kilobytes > 10 && kilobytes <= 100, "the page weighs \(kilobytes) KB: \(output.stdout)")
    }

    /// `reel-bench ui --quick` drives the real `reel ui` in a pseudo-terminal through its frame
    /// trace: 50 keys on Movies and on a Saved tab of 200 titles, then `reel saved`. Every figure
    /// must be there (a number, not "–"), the app must quit on `q`, and the warm cache must spare
    /// the server every request. Times are not judged here. At 100 columns, below the preview
    /// pane's 120: which titles the preview fetches depends on where the cursor happened to rest
    /// for 35 ms, which a warm-up run cannot promise to repeat (the preview's logic has its own
    /// tests: PreviewUpdateTests, and in tmux TerminalAppTests).
    @Test func theTerminalAppBenchmarkRunsInQuickMode() async throws {
        let samples = temporaryDirectory("ui-bench") + "/samples.csv"
        let output = try await Harness.run(Harness.binaries + "/reel-bench", ["ui", "--quick", "--width", "100", "--samples", samples])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        func cells(_ row: String) -> [Substring] {
            guard let line = lines.first(where: { $0.hasPrefix(row) }) else { return [] }
            return line.dropFirst(row.count).split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(output.stdout.contains("Saved (200)"), "\(output.stdout)")
        for row in ["1. start to first full screen", "2. key read to screen flushed, p50 (ms)", "   p99 (ms)", "4. peak memory (MiB)"] {
            let figures = cells(row).filter { Double($0) != nil }
            #expect(figures.count >= 2, "\(row): \(output.stdout)")
        }
        // "50 / 44  50 / 44": every key typed on both lists, most of them moving the cursor.
        let typed = cells("   keys typed / that changed the screen")
        #expect(typed.count >= 6 && typed[0] == "50" && typed[3] == "50" && Int(typed[2]) ?? 0 > 25 && Int(typed[5]) ?? 0 > 25, "\(output.stdout)")
        // "296 / 288  338 / 325  –": bytes per one-row move on both lists (reel saved has none).
        let bytes = cells("3. bytes to the terminal per move: j k (p50 / mean)").map { $0.replacingOccurrences(of: ",", with: "") }
        #expect(bytes.count >= 6 && [0, 2, 3, 5].allSatisfy { Int(bytes[$0]) ?? 0 > 0 }, "\(output.stdout)")
        #expect(cells("   requests the server saw (warm cache)").first == "0", "\(output.stdout)")
        // Every key of both lists, with its frame.
        let csv: [Substring] = try String(contentsOfFile: samples, encoding: .utf8).split(separator: "\n")
        #expect(csv.count == 1 + 2 * 50, "\(csv.prefix(3))")
    }

    /// `reel-bench commands --quick` runs adds through group commit (with and without idempotency
    /// keys) and one transaction each, checks every account holds its adds and the ledger
    /// verifies, and prints each figure. Times are not judged here.
    @Test func theCommandBenchmarkRunsInQuickMode() async throws {
        let output = try await Harness.run(Harness.binaries + "/reel-bench", ["commands", "--quick"])
        #expect(output.status == 0, "\(output.stderr)")
        for row in ["8 tasks, group commit (commands/s)", "8 tasks, group commit, idempotency keys (commands/s)", "mean batch", "per command p50 / p99"] {
            let line = output.stdout.split(separator: "\n").first { $0.contains(row) }
            #expect(line.map { !$0.contains("–") } == true, "\(row): \(output.stdout)")
        }
    }

    /// `reel-bench ledger --quick` times `reel saved` and `reel fav add` with the sample catalog,
    /// and `reel saved` from a warm cache of the in-process fake server, which must see nothing.
    @Test func theLedgerBenchmarkRunsInQuickMode() async throws {
        let output = try await Harness.run(Harness.binaries + "/reel-bench", ["ledger", "--quick"])
        #expect(output.status == 0, "\(output.stderr)")
        for row in ["1. projections rebuild", "2. reel saved, 500 favorites", "with TMDb, details from a warm cache", "3. reel fav add"] {
            #expect(output.stdout.contains(row), "\(row): \(output.stdout)")
        }
        let warmRequests = output.stdout.split(separator: "\n").first { $0.contains("requests the server saw") }
        #expect(warmRequests?.split(separator: " ").contains("0") == true, "\(output.stdout)")
    }
}
