public import Reel
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Foundation
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization
import UnixSignals

/// `reel serve`: the application core as an HTTP JSON service, for many accounts at once.
///
/// Routes parse, call one use case and render (`AccountEndpoints`, `CatalogEndpoints`,
/// `EventStreamEndpoint`, `ImageEndpoints`, `OperatorEndpoints`, `SystemEndpoints`); the middleware answers every
/// error as a problem and logs each request (`RequestLog`, with the CORS headers of `CrossOrigin`),
/// answers a wrong method with 405 and `Allow` and a browser's preflight (`MethodGate`), lets a
/// route reach only its token's
/// account (`AccountAuthentication`) and the operator's routes only with the operator token
/// (`OperatorAuthentication`). SIGTERM or SIGINT drain it: event streams end with a retry hint,
/// new connections are refused, in-flight requests finish (an acknowledged append is durable),
/// and it returns within the shutdown deadline.
///
/// ```swift
/// let server = ReelServer(settings: settings, generator: "reel 1.0")
/// var configuration = Application.Configuration(dataDirectory: dir)
/// configuration.commitObserver = server.commitObserver
/// try await server.run(Application(configuration)) { address in print("listening on \(address)") }
/// ```
public struct ReelServer: Sendable {
    public let settings: ServiceSettings
    private let generator: String
    private let metrics = ServiceMetrics()

    public init(settings: ServiceSettings, generator: String) {
        self.settings = settings
        self.generator = generator
    }

    /// Where the application core reports its group commits (for `/metrics`).
    public var commitObserver: @Sendable (CommitFigures) -> Void {
        { [metrics] figures in metrics.commit(commands: figures.commands, seconds: figures.seconds) }
    }

    /// Serves until SIGTERM or SIGINT; `listening` is told the address once the socket is bound
    /// (`http://127.0.0.1:8080`, with the port the system chose for port 0).
    public func run(_ application: Reel.Application, listening: @escaping @Sendable (String) -> Void) async throws {
        Self.bootstrapLogging()
        let logger = Logger(label: "reel.serve")
        let lifecycle = ServiceLifecycleState(application: application)
        let scheme = settings.tlsCertificate == nil ? "http" : "https"
        let server = Hummingbird.Application(
            router: router(application, lifecycle),
            server: try serverBuilder(),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "reel"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? settings.port
                let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
                listening("\(scheme)://\(host):\(port)")
            },
            logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: server), .init(service: lifecycle)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(Int64(settings.shutdownDeadline * 1000))
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            throw Self.listenFailure(error, host: settings.host, port: settings.port) ?? error
        }
    }

    /// The failure to listen where asked, in words: the address in use, not this machine's, a
    /// host name that does not resolve (a person's mistake in `--listen`, not a bug of Reel's).
    static func listenFailure(_ error: any Error, host: String, port: Int) -> Failure? {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        switch error {
        case let io as IOError where io.errnoCode == EADDRINUSE:
            return Failure(.unavailable, "cannot listen on \(address): the address is in use (another reel serve?)")
        case let io as IOError where io.errnoCode == EADDRNOTAVAIL:
            return Failure(.usage, "cannot listen on \(address): that address is not this machine's")
        case let io as IOError where io.errnoCode == EACCES:
            return Failure(.unavailable, "cannot listen on \(address): permission denied (ports below 1024 need privileges)")
        case is SocketAddressError, is SocketAddressError.UnknownHost:
            return Failure(.usage, "cannot listen on \(address): the host does not resolve to an address")
        default:
            return nil
        }
    }

    func router(_ application: Reel.Application, _ lifecycle: ServiceLifecycleState) -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        addOuterMiddleware(to: router, metrics: metrics)
        let input = RequestInput(settings: settings)
        let system = SystemEndpoints(application: application, metrics: metrics, lifecycle: lifecycle)
        system.add(to: router)
        ImageEndpoints(application: application).add(to: router)
        TransparencyEndpoints(application: application).add(to: router)
        WitnessEndpoints(application: application, logs: settings.witnessedLogs, input: input).add(to: router)
        WebEndpoints().add(to: router)

        let limiter = RateLimiter(rate: settings.ratePerSecond, burst: settings.burst)
        let session = BrowserSession(secure: settings.tlsCertificate != nil)
        let account = router.group("v1").add(middleware: AccountAuthentication(application: application, limiter: limiter, session: session))
        SessionEndpoints(application: application, input: input, session: session).add(to: router, account: account)
        AccountEndpoints(application: application, input: input, generator: generator, savedAnswers: SavedAnswers()).add(to: account)
        CatalogEndpoints(application: application).add(to: account)
        EventStreamEndpoint(
            application: application, settings: settings, streams: StreamCounter(), metrics: metrics, lifecycle: lifecycle,
            tokens: TokenWatch(store: application)
        ).add(to: account)

        let operatorAuthentication = OperatorAuthentication(token: settings.operatorToken)
        OperatorEndpoints(application: application).add(to: router.group("v1/admin").add(middleware: operatorAuthentication))
        system.addMetrics(to: router.group().add(middleware: operatorAuthentication))
        return router
    }

    /// What every request meets first, before any route's own middleware: the log (which answers
    /// errors as problems, with the CORS headers of `CrossOrigin`), then the methods' gate.
    func addOuterMiddleware(to router: Router<ServiceRequestContext>, metrics: ServiceMetrics) {
        let crossOrigin = CrossOrigin(origins: settings.allowedOrigins)
        router.add(middleware: RequestLog(metrics: metrics, crossOrigin: crossOrigin))
        router.add(middleware: MethodGate(routes: RouteMethods(operatorRoutes: settings.operatorToken != nil), crossOrigin: crossOrigin))
    }

    private func serverBuilder() throws -> HTTPServerBuilder {
        var http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [SlowClientGuard(limit: .milliseconds(Int64(settings.headerTimeout * 1000)))],
            idleTimeout: .milliseconds(Int64(settings.idleTimeout * 1000)))
        // Header floods: a request's head is small; thousands of fields are an attack.
        http1.httpDecoder = .init(maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100)
        guard let certificate = settings.tlsCertificate, let key = settings.tlsKey else { return .http1(configuration: http1) }
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
            let tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
            return try .tls(.http1(configuration: http1), tlsConfiguration: tls)
        } catch {
            throw Failure(.usage, "--tls-cert \(certificate) / --tls-key \(key): not a PEM certificate chain and private key that can be used (\(error))")
        }
    }

    private static let logging = Mutex(false)

    /// One JSON object per line on standard error, for the whole process (once).
    static func bootstrapLogging() {
        logging.withLock { done in
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
    }
}
