import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// The web app at `/` in a real browser (`Tools/browser_check.py`: Debian's Chromium, headless,
/// driven by Playwright) against the real `reel serve` and the fake TMDb server: signing in with
/// a link, browsing and scrolling, saving from a row, search, details, remove and undo, a change
/// made in a shell appearing live, hostile titles, the language, the photo, time travel, phone
/// width, the keyboard, a cross-origin form post refused, and deleting the account. Any console
/// error (a CSP violation is one), failed request or unexpected error answer fails it. The
/// screenshots (1280×800 and 390×844) are kept in `.build/artefacts/web/`.
@Suite struct WebAppBrowserTests {
    @Test func aPersonUsesTheWebAppInARealBrowser() async throws {
        let ready = try await Harness.run("python3", ["-c", "import playwright"]).status == 0 && FileManager.default.fileExists(atPath: "/usr/bin/chromium")
        if !ready {
            // CI installs both (Tools/install-deps.sh); a machine without them cannot run this check.
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "Chromium or Playwright is not installed: run Tools/install-deps.sh")
            return
        }
        let tmdb = try await offThread { try FakeTMDbProcess() }
        let home = Home(server: tmdb)
        let service = try await ServiceProcess.start(home)
        let token = try await service.token(for: "ann")
        let created = try await service.reel(["token", "create", "--user", "ann", "--link", "--url", service.url, "--json"])
        #expect(created.status == 0, "\(created.stderr)")
        let link = try #require(try Harness.json(created.stdout)["link"] as? String)
        // `reel` as a person runs it in a shell beside the browser, on the service's data.
        let wrapper = temporaryDirectory("browser") + "/reel"
        var exports = ["REEL_DATA_DIR": home.data, "XDG_CONFIG_HOME": home.config, "REEL_KEYRING": Harness.keyring, "NO_COLOR": "1"]
        for (key, value) in home.environment { exports[key] = value }
        let script = "#!/bin/sh\n" + exports.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'\n" }.joined()
            + "exec '\(Harness.binaries)/reel' \"$@\"\n"
        try script.write(toFile: wrapper, atomically: true, encoding: .utf8)
        #expect(chmod(wrapper, 0o755) == 0)
        let artefacts = Harness.root + "/.build/artefacts/web"
        let configuration: [String: String] = [
            "url": service.url, "link": link, "token": token, "reel": wrapper, "fake": tmdb.root, "artefacts": artefacts,
        ]
        let argument = String(decoding: try JSONSerialization.data(withJSONObject: configuration), as: UTF8.self)
        let out = try await Harness.run("python3", [Harness.root + "/Tools/browser_check.py", argument])
        // The failed step's cause comes first on stderr (the app's answers and its toast meanwhile),
        // Playwright's error after it, its page snapshot last (often longer than the tail kept):
        // both ends are said, and the service's own last lines (its log holds no secret: below).
        #expect(
            out.status == 0,
            """
            the browser check failed:
            \(out.stdout.suffix(3000))
            \(out.stderr.prefix(2000))
            …
            \(out.stderr.suffix(1500))
            the service's log ends:
            \(service.logText.split(separator: "\n").suffix(25).joined(separator: "\n"))
            """)
        #expect(out.stdout.contains("browser check passed"))
        // Nothing of the account's secrets in the service's log.
        #expect(!service.logText.contains("reel_"), "a secret reached the log")
        _ = try await service.stopped()
    }
}
