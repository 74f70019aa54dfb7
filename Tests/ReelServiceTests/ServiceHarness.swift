import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Reel
import Stores
import ReelTestSupport

@testable import ReelService

/// The service's router over a fresh data directory and the bundled sample catalog (no
/// credentials in the environment), driven in process through HummingbirdTesting.
struct ServiceHarness {
    static let operatorToken = "operator-token-0123456789abcdef"

    let application: Reel.Application
    let settings: ServiceSettings
    let server: ReelServer

    init(operatorToken: String? = Self.operatorToken, origins: [String] = [], environment extra: [String: String] = [:], _ name: String = #function) {
        let environment = ["HOME": temporaryDirectory(name + "-home")].merging(extra) { _, given in given }
        application = Application(.init(dataDirectory: temporaryDirectory(name), environment: environment))
        var settings = ServiceSettings()
        settings.operatorToken = operatorToken
        settings.allowedOrigins = origins
        self.settings = settings
        server = ReelServer(settings: settings, generator: "reel tests")
    }

    /// The router `reel serve` runs.
    func router() -> Router<ServiceRequestContext> {
        server.router(application, ServiceLifecycleState(application: application))
    }

    /// Runs `test` against `router` (by default the service's own), then closes the application.
    func test<Value>(_ router: Router<ServiceRequestContext>? = nil, _ test: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let app = Hummingbird.Application(router: router ?? self.router())
        do {
            let value = try await app.test(.router, test)
            await application.close()
            return value
        } catch {
            await application.close()
            throw error
        }
    }

    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
}
