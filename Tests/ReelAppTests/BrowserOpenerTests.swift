import Foundation
import ReelTestSupport
import Testing

@testable import ReelApp

/// Which command opens a trailer: `$BROWSER` first; `xdg-open` only with a display to open a
/// window on (without one it would start a text browser in the app's own terminal).
@Suite struct BrowserOpenerTests {
    /// A directory on `PATH` holding an executable `xdg-open`.
    static func pathWithXdgOpen() throws -> String {
        let directory = temporaryDirectory("xdg")
        let program = directory + "/xdg-open"
        try "#!/bin/sh\n".write(toFile: program, atomically: true, encoding: .utf8)
        #expect(chmod(program, 0o755) == 0)
        return directory
    }

    @Test func xdgOpenIsUsedOnlyWithADisplay() throws {
        let path = try Self.pathWithXdgOpen()
        let url = "https://www.youtube.com/watch?v=abc"
        #expect(BrowserOpener(environment: ["PATH": path]).command(for: url) == nil)
        #expect(BrowserOpener(environment: ["PATH": path, "DISPLAY": ""]).command(for: url) == nil)
        #expect(BrowserOpener(environment: ["PATH": path, "DISPLAY": ":0"]).command(for: url) == ["xdg-open", url])
        #expect(BrowserOpener(environment: ["PATH": path, "WAYLAND_DISPLAY": "wayland-0"]).command(for: url) == ["xdg-open", url])
        // $BROWSER comes first, display or not; %s stands for the URL.
        #expect(BrowserOpener(environment: ["PATH": path, "BROWSER": "xdg-open --new %s"]).command(for: url) == ["xdg-open", "--new", url])
    }
}
