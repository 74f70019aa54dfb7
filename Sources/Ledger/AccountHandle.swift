/// The name a person uses for their account on this machine (`--user`, `REEL_USER`): 1–64
/// characters of lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit.
public struct AccountHandle: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: String

    public static let `default` = AccountHandle(unchecked: "default")

    public init(_ value: String) throws(DomainError) {
        let allowed = value.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("0"..."9").contains(s) || s == "." || s == "_" || s == "-"
        }
        guard (1...64).contains(value.count), allowed, let first = value.unicodeScalars.first,
            ("a"..."z").contains(first) || ("0"..."9").contains(first)
        else {
            throw .invalidHandle(value)
        }
        self.value = value
    }

    init(unchecked value: String) { self.value = value }

    public var description: String { value }
    public static func < (a: AccountHandle, b: AccountHandle) -> Bool { a.value < b.value }
}
