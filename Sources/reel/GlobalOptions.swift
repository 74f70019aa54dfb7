import ArgumentParser
import Foundation

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where the ledger lives (env REEL_DATA_DIR; default $XDG_DATA_HOME/reel).", valueName: "dir"))
    var dataDir: String?

    @Flag(name: .long, help: "Print one JSON document instead of text.")
    var json = false

    /// `--data-dir`, else `REEL_DATA_DIR`, else `$XDG_DATA_HOME/reel`, else `~/.local/share/reel`.
    var resolvedDataDirectory: String {
        let env = ProcessInfo.processInfo.environment
        if let dataDir, !dataDir.isEmpty { return dataDir }
        if let dir = env["REEL_DATA_DIR"], !dir.isEmpty { return dir }
        if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/reel" }
        return (env["HOME"] ?? NSHomeDirectory()) + "/.local/share/reel"
    }
}
