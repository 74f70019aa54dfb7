import Foundation
import Metrics
import Prometheus
import Synchronization

/// The service's figures, kept in a Prometheus registry and served at `/metrics` in its text
/// format: requests by route and status with their latency, appends' latency and group-commit
/// batch sizes, the catalog cache's hit rate, open event streams.
final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let streams: Metrics.Gauge
    private let openStreams = Mutex(0)
    private let batchSizes: Metrics.Recorder
    private let appendSeconds: Metrics.Timer

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10].map { .seconds($0) }
        factory.defaultValueHistogramBuckets = [1, 2, 4, 8, 16, 32, 64, 128, 256]
        self.factory = factory
        streams = Metrics.Gauge(label: "reel_sse_streams_open", factory: factory)
        batchSizes = Metrics.Recorder(label: "reel_group_commit_batch_commands", aggregate: true, factory: factory)
        appendSeconds = Metrics.Timer(label: "reel_append_duration_seconds", factory: factory)
    }

    /// One answered request: `route` is the route's pattern (`/v1/favorites/{mediaType}/{id}`),
    /// never the path as sent, so ids and handles never become labels.
    func request(route: String, method: String, status: Int, seconds: Double) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        Metrics.Counter(label: "reel_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Metrics.Timer(label: "reel_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(Int64(seconds * 1e9))
    }

    /// One write transaction of the group-committed command path.
    func commit(commands: Int, seconds: Double) {
        batchSizes.record(commands)
        appendSeconds.recordNanoseconds(Int64(seconds * 1e9))
    }

    func streamOpened() { streams.record(openStreams.withLock { $0 += 1; return $0 }) }
    func streamClosed() { streams.record(openStreams.withLock { $0 -= 1; return $0 }) }

    /// The catalog's response cache figures, read when `/metrics` is asked.
    func catalogCache(hits: Int, misses: Int) {
        Metrics.Gauge(label: "reel_catalog_cache_hits", factory: factory).record(hits)
        Metrics.Gauge(label: "reel_catalog_cache_misses", factory: factory).record(misses)
        let total = hits + misses
        Metrics.Gauge(label: "reel_catalog_cache_hit_ratio", factory: factory).record(total == 0 ? 0 : Double(hits) / Double(total))
    }

    /// Everything, in Prometheus's text format.
    func text() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
