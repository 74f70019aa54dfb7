import Reel

/// What `TokenWatch` and `LiveToken` read of the token store: its mark, and whether a token is
/// live as of the store it read (`Application.liveness(of:)`). The application is the one
/// reader the service has; tests stand in for it to put a check where the real store's timing
/// rarely puts it.
protocol TokenStoreReading: Sendable {
    func tokenStoreMark() -> TokenStoreMark
    func liveness(of token: AccessToken) throws -> (live: Bool, seen: TokenStoreMark)
}

extension Reel.Application: TokenStoreReading {}
