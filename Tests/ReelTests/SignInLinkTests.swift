import Foundation
import ReelTestSupport
import Testing

@testable import Reel

/// Sign-in links and browser sessions in the token store: a link is spent once, within 15
/// minutes, for a session of its account; each kind is accepted only where it is meant to be;
/// the new kinds' records (format 2) read back, and an app's token is still written as before.
@Suite struct SignInLinkTests {
    let ann = try! AccountHandle("ann")

    @Test func aLinkIsSpentOnceWithinItsLifetimeForASession() throws {
        let app = TokenStoreTests.application()
        let link = try app.createToken(for: ann, kind: .link)
        #expect(try app.authenticate(bearer: link.secret) == nil, "a link is not a bearer token")
        #expect(try app.authenticate(session: link.secret) == nil, "nor a session")
        let session = try #require(try app.signIn(link: link.secret))
        #expect(session.token.kind == .session && session.token.handle == ann && session.token.stream == link.token.stream)
        #expect(session.token.expiresAt == session.token.createdAt + TokenKind.sessionLifetime)
        #expect(try app.signIn(link: link.secret) == nil, "spent")
        #expect(try app.authenticate(session: session.secret)?.id == session.token.id)
        #expect(try app.authenticate(bearer: session.secret) == nil, "a session is not a bearer token")
        let listed = try app.tokens(of: ann)
        #expect(listed.map(\.kind) == [.link, .session] && listed[0].isRevoked && !listed[1].isRevoked)
        _ = try app.revokeToken(session.token.id)
        #expect(try app.authenticate(session: session.secret) == nil)
        #expect(throws: Failure.self) { try app.createToken(for: ann, kind: .session) }
        let bearer = try app.createToken(for: ann)
        #expect(try app.signIn(link: bearer.secret) == nil, "a bearer token is no link")
    }

    @Test func aLinkIsAcceptedForFifteenMinutesFromItsMaking() throws {
        let app = TokenStoreTests.application()
        let link = try app.createToken(for: ann, kind: .link)
        let store = try #require(try TokenStore.open(in: app.configuration.dataDirectory, create: false))
        let secret = try #require(TokenSecret(text: link.secret))
        #expect(try store.spend(link: secret, at: link.token.createdAt + TokenKind.linkLifetime) == nil, "at its 15th minute it is over")
        #expect(try store.spend(link: secret, at: link.token.createdAt - 120_000_000) == nil, "a clock two minutes behind its making")
        let spent = try #require(try store.spend(link: secret, at: link.token.createdAt + TokenKind.linkLifetime - 1))
        #expect(spent.session.kind == .session && spent.handle == ann)
        #expect(try store.spend(link: secret, at: link.token.createdAt + 1) == nil, "once")
    }

    @Test func aSessionEndsAfterThirtyDays() throws {
        let app = TokenStoreTests.application()
        let store = try #require(try TokenStore.open(in: app.configuration.dataDirectory, create: true))
        _ = try app.createToken(for: ann)
        let (record, _) = try store.issue(.session, for: ann, stream: try #require(try app.account(ann).stream), at: 0)
        #expect(record.isAccepted(at: TokenKind.sessionLifetime - 1) && !record.isAccepted(at: TokenKind.sessionLifetime))
        // An event stream asks whether its token is live: an expired session is not.
        #expect(try store.isLive(id: record.id, stream: record.stream, at: TokenKind.sessionLifetime - 1).live)
        #expect(try !store.isLive(id: record.id, stream: record.stream, at: TokenKind.sessionLifetime).live)
    }

    @Test func recordsOfEachKindReadBackAndAnAppsTokenKeepsFormatOne() throws {
        let secret = TokenSecret.random()
        let stream = try StreamID("account-01a23ee1-3526-730f-841c-0921d1e1c4e7")
        for kind in TokenKind.allCases {
            let record = try TokenRecord(secret: secret, kind: kind, id: "0123456789ab", handle: ann, stream: stream, createdAt: 42)
            #expect(record.bytes.first == (kind == .token ? 1 : 2), "\(kind)")
            #expect(TokenRecord(bytes: record.bytes) == record, "\(kind)")
            #expect(record.handle(openedWith: secret) == ann)
        }
        // Format 2 exists for the other kinds: a token kind there, or an unknown kind, is damage.
        var forged = try TokenRecord(secret: secret, kind: .link, id: "0123456789ab", handle: ann, stream: stream, createdAt: 42).bytes
        forged[1] = 0
        #expect(TokenRecord(bytes: forged) == nil)
        forged[1] = 9
        #expect(TokenRecord(bytes: forged) == nil)
        // A session's record changed on disk into a link (or made younger) no longer opens.
        var session = try TokenRecord(secret: secret, kind: .session, id: "0123456789ab", handle: ann, stream: stream, createdAt: 42).bytes
        session[1] = TokenKind.link.byte
        #expect(TokenRecord(bytes: session)?.handle(openedWith: secret) == nil)
    }
}
