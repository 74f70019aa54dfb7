import Catalog
import ReelTestSupport
import Synchronization

/// A transport that notes, on a test's clock, when each request goes out, then sends it on: what
/// the server would count as arrivals, on a clock the test moves itself.
final class StartsRecorded: CatalogTransport {
    private let wrapped: any CatalogTransport
    private let clock: ManualClock
    private let recorded = Mutex<[ManualClock.Instant]>([])

    init(_ wrapped: any CatalogTransport, clock: ManualClock) {
        self.wrapped = wrapped
        self.clock = clock
    }

    /// When each request went out, in the order they did.
    var starts: [ManualClock.Instant] { recorded.withLock { $0 } }

    func send(_ request: CatalogRequest, ifNoneMatch: String?) async throws -> TransportResponse {
        recorded.withLock { $0.append(clock.now) }
        return try await wrapped.send(request, ifNoneMatch: ifNoneMatch)
    }

    func shutdown() async { await wrapped.shutdown() }
}
