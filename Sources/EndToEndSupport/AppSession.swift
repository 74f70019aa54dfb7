import Foundation
package import ReelTestSupport

/// `reel ui` (or another command) in a real terminal, in a home on a fake TMDb server, with the
/// terminal's settings noted before and after it.
package enum AppSession {
    struct NoHome: Error, CustomStringConvertible { var description: String { "AppSession.start: neither a server nor a home" } }

    /// A home on `server`: its own data, config and state directories.
    package static func environment(_ server: FakeTMDbProcess) -> [String: String] {
        [
            "TMDB_API_TOKEN": "any-token", "REEL_TMDB_BASE_URL": server.baseURL, "REEL_DATA_DIR": temporaryDirectory("ui-data"),
            "XDG_CONFIG_HOME": temporaryDirectory("ui-config"), "XDG_STATE_HOME": temporaryDirectory("ui-state"), "REEL_USER": "ann",
            "LANG": "C.UTF-8",
        ]
    }

    /// `stty -a`, then the program, then `stty -a` again, in one pane: the two must match.
    /// `home`: the environment to run in (a new home on `server` without one; one of the two is
    /// given); `keys`: a keys.toml to put in its config directory; `unset`: variables of the
    /// test's own environment the program must not see (its credentials, say).
    package static func start(
        _ server: FakeTMDbProcess?, _ arguments: [String] = ["ui"], width: Int = 100, height: Int = 30, home: [String: String]? = nil,
        keys: String? = nil, unset: [String] = []
    ) async throws -> TerminalSession {
        let reel = Harness.binaries + "/reel"
        let unsetting = unset.isEmpty ? "" : "unset \(unset.joined(separator: " ")); "
        let script =
            unsetting + "stty -a > \"$STTY_DIR/before\"; '\(reel)' \(arguments.joined(separator: " ")); status=$?; stty -a > \"$STTY_DIR/after\"; exit $status"
        guard var environment = home ?? server.map(Self.environment) else { throw NoHome() }
        environment["REEL_KEYRING"] = environment["REEL_KEYRING"] ?? Harness.keyring
        if let keys {
            let dir = environment["XDG_CONFIG_HOME"]! + "/reel"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try keys.write(toFile: dir + "/keys.toml", atomically: true, encoding: .utf8)
        }
        environment["STTY_DIR"] = temporaryDirectory("stty")
        return try await TerminalSession(["sh", "-c", script], environment: environment, width: width, height: height)
            .remembering(sttyDirectory: environment["STTY_DIR"]!)
    }
}
