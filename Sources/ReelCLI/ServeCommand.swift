import ArgumentParser
import Foundation
import Reel
import Stores
import ReelService

/// `reel serve`: the ledger as an HTTP JSON service (ReelService) on the usual data directory.
/// Prints the address it listens on once (stdout), logs one JSON line per request (stderr), and
/// stops gracefully on SIGTERM or SIGINT (exit 0).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the ledger over HTTP for apps and operators (see /openapi.json).",
        discussion: """
            Account tokens: reel token create --user HANDLE. Operator endpoints (/v1/admin, /metrics) need REEL_OPERATOR_TOKEN. \
            Limits: REEL_SERVE_MAX_BODY, REEL_SERVE_RATE, REEL_SERVE_BURST, REEL_SERVE_STREAMS, REEL_SERVE_HEADER_TIMEOUT, \
            REEL_SERVE_SHUTDOWN_DEADLINE.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Where to listen, HOST:PORT (env REEL_LISTEN; default 127.0.0.1:8080; port 0: any free port).", valueName: "host:port"))
    var listen: String?

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("A PEM certificate chain, to serve HTTPS directly (with --tls-key).", valueName: "file"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The certificate's PEM private key.", valueName: "file"))
    var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "Also be a C2SP witness (POST /add-checkpoint) for the ledgers whose keys this file lists, one a line (env REEL_WITNESS_LOGS).",
            valueName: "file"), completion: .file(), transform: PathArgument.parse)
    var witness: String?

    func validate() throws {
        if (tlsCertificate == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
    }

    func run() async throws {
        try await runReporting {
            var settings = try ServiceSettings.from(environment: ProcessInfo.processInfo.environment, listen: listen)
            settings.tlsCertificate = tlsCertificate
            settings.tlsKey = tlsKey
            if let witness { settings.witnessedLogs = try WitnessedLogs(file: witness) }
            let server = ReelServer(settings: settings, generator: "reel \(ReelCommand.configuration.version)")
            var configuration = global.makeConfiguration()
            configuration.commitObserver = server.commitObserver
            let application = Application(configuration)
            do {
                try await server.run(application) { address in Console.line("listening on \(address)") }
            } catch {
                await application.close()
                throw error
            }
            await application.close()
        }
    }
}
