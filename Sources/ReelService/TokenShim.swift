// TEMPORARY until svc-tokens merges.
public import Reel
extension Application {
    func addFavorites(_ keys: [MediaKey], for handle: AccountHandle, requestKey: String?) async throws -> ChangeReport { try await addFavorites(keys, for: handle) }
    func removeFavorites(_ keys: [MediaKey], for handle: AccountHandle, requestKey: String?) async throws -> ChangeReport { try await removeFavorites(keys, for: handle) }
    func change(_ command: Command, for handle: AccountHandle, requestKey: String?, photo: [UInt8]? = nil) async throws -> ChangeReport { try change(command, for: handle, photo: photo) }
}
extension ChangeReport { var replayed: Bool { false } }
public struct CommitFigures: Sendable { public let commands: Int; public let events: Int; public let seconds: Double }
extension Application.Configuration { public var commitObserver: @Sendable (CommitFigures) -> Void { get { { _ in } } set {} } }
