import Foundation
import Processes

/// Opens a link in the person's browser from the terminal app: `$BROWSER` when set (a list of
/// commands separated by `:`, the first one found on `PATH` used; `%s` in it stands for the URL,
/// else the URL is its last argument, as xdg-utils read it), else `xdg-open` when on `PATH` and
/// there is a display to open a window on (`DISPLAY` or `WAYLAND_DISPLAY`): without one, as over
/// SSH, xdg-open falls back to a text browser that would take over the app's own terminal.
/// The browser starts in a session of its own with its standard descriptors on /dev/null, so it
/// never writes over the app's screen nor takes its keys, and is reaped off the app's loop. Only
/// a URL that is safe as a hyperlink (`Hyperlinks.safe`: http or https, printable ASCII) is
/// given, as one argument: no shell reads it.
struct BrowserOpener: Sendable {
    let environment: [String: String]

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The command that would open `url`, nil when there is none here.
    func command(for url: String) -> [String]? {
        var candidates: [[String]] = []
        if let browser = environment["BROWSER"], !browser.isEmpty {
            for entry in browser.split(separator: ":") {
                let words = entry.split(separator: " ").map(String.init)
                guard !words.isEmpty else { continue }
                candidates.append(words.contains("%s") ? words.map { $0 == "%s" ? url : $0 } : words + [url])
            }
        }
        if !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            candidates.append(["xdg-open", url])
        }
        return candidates.first { isProgram($0[0]) }
    }

    /// Opens `url`: what happened, in the words of the details' messages.
    func open(_ url: String) async -> DetailsMessage {
        guard let safe = Hyperlinks.safe(url), safe == url else { return .linkNotOpened(url, why: "not a link a browser is given") }
        guard let command = command(for: url) else { return .linkNotOpened(url, why: "no browser here ($BROWSER unset; no display for xdg-open)") }
        let name = (command[0] as NSString).lastPathComponent
        do {
            let child = try ChildProcess.spawn(command, environment: environment, newSession: true)
            // Reaped off the loop: a browser may run for as long as it likes.
            Thread.detachNewThread { _ = child.wait() }
            return .linkOpened(url, browser: name)
        } catch {
            return .linkNotOpened(url, why: "\(name) could not be started")
        }
    }

    /// Whether `program` (a path, or a name looked up in `PATH`) is an executable file.
    private func isProgram(_ program: String) -> Bool {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }
}
