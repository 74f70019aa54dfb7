import Foundation
import ReelTestSupport

/// `Tools/tlogcheck`: checks proofs with the Go checksum database's `sumdb/tlog` and `sumdb/note`
/// (Debian's `golang-golang-x-mod-dev`), code Reel did not write. Built once per test run, offline
/// (GOPATH mode over Debian's Go sources).
package enum GoTlogCheck {
    private static let built = Task { () throws -> String in
        let directory = temporaryDirectory("tlogcheck")
        let binary = directory + "/tlogcheck"
        let environment = ["GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOCACHE": directory + "/cache", "GOFLAGS": ""]
        let out = try await Harness.run("go", ["build", "-o", binary, Harness.root + "/Tools/tlogcheck/main.go"], environment: environment)
        guard out.status == 0 else { throw GoBuildFailure(description: "go build Tools/tlogcheck: \(out.stderr)") }
        return binary
    }

    /// Checks each proof file under `key`: its output (a line per file, `ok …` or `FAIL …`).
    package static func proofs(_ files: [String], key: String) async throws -> Harness.Output {
        try await Harness.run(try await built.value, ["proof", "-key", key] + files)
    }

    /// Checks each consistency proof file (`reel audit consistency --out`) under `key`.
    package static func consistency(_ files: [String], key: String) async throws -> Harness.Output {
        try await Harness.run(try await built.value, ["consistency", "-key", key] + files)
    }

    /// Checks each file (a checkpoint, or a tlog-proof) as signed under `key` and cosigned by the
    /// witness whose key is `witness` (C2SP tlog-cosignature v1).
    package static func cosigned(_ files: [String], key: String, witness: String) async throws -> Harness.Output {
        try await Harness.run(try await built.value, ["cosigned", "-key", key, "-witness", witness] + files)
    }

    /// Follows the log served at `url` (`/checkpoint`, `/tile/…`) under `key`; each of `proofs`
    /// (tlog-proof files) names an envelope the tiles must hold at its index.
    package static func tiles(_ url: String, key: String, proofs: [String] = []) async throws -> Harness.Output {
        try await Harness.run(try await built.value, ["tiles", "-key", key, url] + proofs)
    }

    struct GoBuildFailure: Error, CustomStringConvertible {
        let description: String
    }
}
