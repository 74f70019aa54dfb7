import Foundation

/// Where Reel keeps what it notes for itself between runs (which notices were shown, the
/// terminal app's log): `$XDG_STATE_HOME/reel`, else `~/.local/state/reel`.
public enum StateDirectory {
    public static func path(environment: [String: String]) -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/reel" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/reel"
    }
}
