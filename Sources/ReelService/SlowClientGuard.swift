import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client takes longer than the limit to send a request's head: from
/// the connection's start, or, on a kept-alive connection, from the first byte of the next
/// request. A client that trickles a header byte every few seconds (slowloris) never lets the
/// idle timeout fire; this does. A body that trickles is cut off by the handlers' body timeout
/// (`RequestInput`).
///
/// A kept-alive connection that sends nothing after an answer is idle, not slow: the service's
/// idle timeout (`ServiceSettings.idleTimeout`, 60 s) closes it. One answered before its
/// request's body ended (a 413) is not idle: the client still owes the body, and the connection
/// is closed within the limit, as before. Were the head's limit counted
/// from the answer, as it once was, every connection pool keeping connections longer than that
/// limit (AsyncHTTPClient's keeps them 60 s) would meet a close racing its next request, which
/// then fails unsent ("remote connection closed").
final class SlowClientGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Whether the connection waits for a request's head: from its start, and from each answer's
    /// end.
    private var awaitingHead = true
    /// Whether the last request's body has ended (its end read).
    private var requestEnded = true

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The bytes as they come, before the HTTP decoder makes parts of them: at the front.
        try? context.pipeline.syncOperations.addHandler(ArrivalWatcher(self), position: .first)
        if context.channel.isActive { arm(context.channel) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context.channel)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            awaitingHead = false
            requestEnded = false
            deadline?.cancel()
            deadline = nil
        case .end:
            requestEnded = true
            // The body owed after an early answer came after all: the connection is idle now.
            if awaitingHead {
                deadline?.cancel()
                deadline = nil
            }
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            awaitingHead = true
            // Answered before its body's end: closed within the limit, whatever it sends.
            if !requestEnded { arm(context.channel) }
        }
        context.write(data, promise: promise)
    }

    /// Bytes came from the client: the first of a request's head starts its limit.
    fileprivate func bytesArrived(on channel: any Channel) {
        if awaitingHead, deadline == nil { arm(channel) }
    }

    private func arm(_ channel: any Channel) {
        deadline?.cancel()
        deadline = channel.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }

    /// Tells the guard of each read of the connection's bytes, passing them on unchanged.
    private final class ArrivalWatcher: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private weak var watching: SlowClientGuard?

        init(_ watching: SlowClientGuard) {
            self.watching = watching
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            watching?.bytesArrived(on: context.channel)
            context.fireChannelRead(data)
        }
    }
}
