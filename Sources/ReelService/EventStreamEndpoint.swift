import Foundation
import HTTPTypes
import Hummingbird
import Reel
import ReportJSON
import Synchronization

/// `GET /v1/events`: the account's events as Server-Sent Events, a live catch-up subscription.
/// Each event's `id` is its stream version, so a client that lost its connection sends the last
/// one it has as `Last-Event-ID` (or `?after=`) and gets every later event once, in order: none
/// missed, none repeated. A comment line every 15 seconds keeps proxies from closing a quiet
/// stream; at shutdown the stream ends with a `retry:` hint so clients come back to another
/// instance.
struct EventStreamEndpoint {
    let application: Reel.Application
    let settings: ServiceSettings
    let streams: StreamCounter
    let metrics: ServiceMetrics
    let lifecycle: ServiceLifecycleState
    /// Ends the streams of tokens revoked meanwhile, by any process.
    let tokens: TokenWatch

    static let heartbeat: Duration = .seconds(15)
    /// Frames waiting for one slow client, at most.
    static let backlog = 1_024

    func add(to group: RouterGroup<ServiceRequestContext>) {
        group.get("events", use: events)
    }

    @Sendable func events(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        if lifecycle.isDraining {
            throw Problem(.serviceUnavailable, kind: FailureKind.unavailable.rawValue, "the service is shutting down", headers: [.retryAfter: "1"])
        }
        let after = try Self.after(request)
        let accessToken = try context.token ?? { throw Problem.unauthorized("a bearer token is required") }()
        let token = accessToken.id
        guard streams.open(token, limit: settings.streamsPerToken) else {
            throw Problem(
                .tooManyRequests, kind: "rateLimited", "this token has \(settings.streamsPerToken) event streams open already; close one first",
                headers: [.retryAfter: "5"])
        }
        let entries: AsyncThrowingStream<HistoryEntry, any Error>
        do {
            entries = try application.accountEvents(of: context.boundAccount(), after: after)
        } catch {
            streams.close(token)
            throw error
        }
        metrics.streamOpened()
        let live = LiveToken(accessToken, store: application)
        let body = ResponseBody { [streams, metrics, tokens] writer in
            let (frames, ending, revoked) = Self.frames(entries, live: live.check)
            // The token revoked (its account deleted) by any process ends the stream within the
            // watch's interval, with nothing appended after it.
            let watching = tokens.watch(live, end: revoked)
            defer {
                tokens.unwatch(watching)
                streams.close(token)
                metrics.streamClosed()
            }
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            // A client that goes away ends the stream at once (not at the next heartbeat's
            // failed write), so its place under the per-token limit is free again.
            try await request.body.consumeWithInboundCloseHandler { _ in
                for await frame in frames { try await writer.write(ByteBuffer(string: frame)) }
            } onInboundClosed: {
                ending.finish()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no"],
            body: body)
    }

    /// The stream's text: each event as `id`, `event` and `data` lines; heartbeats; and, when the
    /// entries end, a last `retry` hint (the service is going away) or the error as an `error` event.
    ///
    /// `live` is asked before each event is sent; the third value ends the stream as one whose
    /// token is no longer live (`endRevoked`), once, whoever finds it first.
    static func frames(
        _ entries: AsyncThrowingStream<HistoryEntry, any Error>, live: @escaping @Sendable () -> Bool = { true }
    ) -> (AsyncStream<String>, AsyncStream<String>.Continuation, @Sendable () -> Void) {
        // Bounded, like the feed behind it: a client that reads slower than its account changes
        // is ended rather than buffered without limit; what was buffered is still sent, and it
        // resumes after the last id it got (Last-Event-ID), missing nothing.
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(backlog))
        let revokedOnce = Mutex(false)
        let revoked: @Sendable () -> Void = {
            if revokedOnce.withLock({ ended in defer { ended = true }; return !ended }) { endRevoked(continuation) }
        }
        do {
            let forward = Task {
                do {
                    for try await entry in entries {
                        // Checked before each event: one appended after the token was revoked
                        // (or its account deleted) never reaches its stream.
                        guard live() else {
                            revoked()
                            return
                        }
                        if case .dropped = continuation.yield(frame(entry)) {
                            continuation.finish()
                            return
                        }
                        if entry.type == "account-deleted" { break }
                    }
                    continuation.yield("retry: 1000\n: the stream ends here; reconnect with Last-Event-ID\n\n")
                } catch ReelError.accountGone {
                    // The token's account was deleted (and its handle perhaps taken again).
                    revoked()
                    return
                } catch {
                    let problem = Problem(error)
                    let data = ["kind": JSONValue.string(problem.kind), "detail": .string(problem.detail)] as JSONValue
                    continuation.yield("event: error\ndata: \(data.text)\n\n")
                }
                continuation.finish()
            }
            let beat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: heartbeat)
                    if !Task.isCancelled { continuation.yield(": keep-alive\n\n") }
                }
            }
            continuation.onTermination = { _ in
                forward.cancel()
                beat.cancel()
            }
        }
        return (stream, continuation, revoked)
    }

    /// Ends a stream whose token is no longer live: an `error` event of kind `unauthorized`,
    /// then nothing (the client's reconnection is answered 401).
    static func endRevoked(_ continuation: AsyncStream<String>.Continuation) {
        let data = ["kind": JSONValue.string("unauthorized"), "detail": .string(revokedDetail)] as JSONValue
        continuation.yield("event: error\ndata: \(data.text)\n\n")
        continuation.finish()
    }

    static let revokedDetail = "the token was revoked, or its account deleted; the stream ends here"

    static func frame(_ entry: HistoryEntry) -> String {
        "id: \(entry.streamVersion)\nevent: \(entry.type)\ndata: \(ReportJSON.entry(entry, title: nil).text)\n\n"
    }

    /// The last stream version the client has: `Last-Event-ID`, else `?after=`, else 0 (all).
    static func after(_ request: Request) throws -> UInt64 {
        let given = request.headers[.lastEventID] ?? RequestInput.query(request, "after")
        guard let given, !given.isEmpty else { return 0 }
        guard let version = UInt64(given) else { throw Problem.usage("Last-Event-ID \(given): expected a stream version (a whole number)") }
        return version
    }
}

extension HTTPField.Name {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
