/// A TMDb person as a list names them: the id and the name.
public struct PersonName: Sendable, Equatable {
    public let id: Int
    public let name: String
}
