import ServiceLifecycle
import Synchronization
import Reel

/// What the service knows of its own life: whether it is draining (a shutdown began: `/ready`
/// says 503, no new event stream opens). As a `Service` in the group it runs until a graceful
/// shutdown begins, then marks the service draining and ends every event stream with a retry
/// hint, before the server stops accepting and finishes its in-flight requests.
final class ServiceLifecycleState: Service, Sendable {
    private let draining = Atomic(false)
    private let application: Reel.Application

    init(application: Reel.Application) {
        self.application = application
    }

    var isDraining: Bool { draining.load(ordering: .acquiring) }

    func run() async throws {
        try? await gracefulShutdown()
        draining.store(true, ordering: .releasing)
        application.finishEventStreams()
    }
}
