import Foundation
import Reel
import Stores

extension CommandOptions {
    /// The application for this command's options: one per process, made when the command runs.
    func makeApplication() -> Application {
        Application(makeConfiguration())
    }

    /// The application's configuration for this command's options.
    func makeConfiguration() -> Application.Configuration {
        Application.Configuration(
            dataDirectory: resolvedDataDirectory, store: store, offline: isOffline, environment: ProcessInfo.processInfo.environment,
            notice: { [directory = resolvedDataDirectory] in Notes.show($0, dataDirectory: directory) })
    }

    /// Runs a command body with the application, printing a failure as one line on stderr with
    /// its exit status (`runReporting`); the application is closed either way.
    func withApplication(_ body: (Application) async throws -> Void) async throws {
        try await runReporting {
            let application = makeApplication()
            do {
                try await body(application)
            } catch {
                await application.close()
                throw error
            }
            await application.close()
        }
    }
}
