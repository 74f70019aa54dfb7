import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Schemathesis (`Tools/schemathesis_check.sh`) against the real `reel serve` and the document it
/// serves, as a real account and as the operator: no 5xx, and every answer one the document gives.
@Suite struct ServiceContractTests {
    @Test func schemathesisFindsNoServerErrorAndNoAnswerOutsideTheContract() async throws {
        let installed = try await Harness.run("/bin/sh", ["-c", "command -v schemathesis"]).status == 0
        if !installed {
            // CI installs it (Tools/install-deps.sh); a machine without it cannot run this check.
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "schemathesis is not installed: run Tools/install-deps.sh")
            return
        }
        let tmdb = try await offThread { try FakeTMDbProcess() }
        let service = try await ServiceProcess.start(Home(server: tmdb), environment: ["REEL_SERVE_RATE": "1000", "REEL_SERVE_BURST": "1000"])
        let token = try await service.token(for: "fuzz")
        let url = service.url
        let out = try await Harness.run(Harness.root + "/Tools/schemathesis_check.sh", [url, token, ServiceProcess.operatorToken])
        #expect(out.status == 0, "schemathesis found a problem:\n\(out.stdout.suffix(4000))\n\(out.stderr.suffix(2000))")
        #expect(!service.logText.contains(token))
    }
}
