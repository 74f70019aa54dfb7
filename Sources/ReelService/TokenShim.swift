// TEMPORARY until svc-tokens merges.
public import Reel
public struct AccessToken: Sendable, Hashable {
    public let id: String
    public let handle: AccountHandle
    public let createdAt: Int64
    public let revokedAt: Int64?
}
extension Application {
    func authenticate(bearer secret: String) throws -> AccessToken? { nil }
}
extension Application {
    func addFavorites(_ keys: [MediaKey], for handle: AccountHandle, requestKey: String?) async throws -> ChangeReport { try await addFavorites(keys, for: handle) }
    func removeFavorites(_ keys: [MediaKey], for handle: AccountHandle, requestKey: String?) async throws -> ChangeReport { try await removeFavorites(keys, for: handle) }
    func change(_ command: Command, for handle: AccountHandle, requestKey: String?, photo: [UInt8]? = nil) async throws -> ChangeReport { try change(command, for: handle, photo: photo) }
}
extension ChangeReport { var replayed: Bool { false } }
extension Application {
    func tokens(of handle: AccountHandle?) throws -> [AccessToken] { [] }
}
public struct CommitFigures: Sendable { public let commands: Int; public let events: Int; public let seconds: Double }
extension Application.Configuration { public var commitObserver: @Sendable (CommitFigures) -> Void { get { { _ in } } set {} } }
