/// Which key does what: the defaults (`KeyAction.defaults`), with the actions `keys.toml` binds
/// given its keys instead. A key bound to an action is read as the action's canonical key before
/// `AppUpdate` sees it; a default key whose action was given others does nothing. Keys no action
/// names (`esc`, `enter`, what a text field takes) pass as they are, and `ctrl-c` always quits.
public struct KeyBindings: Sendable, Equatable {
    /// Every bound key's actions (several only where they work in different places).
    private var actions: [Key: [KeyAction]]
    /// Default keys no longer bound to anything, where they were.
    private var unbound: [Key: [KeyAction]]

    /// Keys no file may bind: they open, apply, go back, delete and quit everywhere.
    public static let reserved: [Key] = [.control("c"), .enter, .escape, .backspace]

    public static let standard = try! KeyBindings([])

    /// One action's keys from `keys.toml`, and the line it was given on (for errors).
    public struct Binding: Sendable, Equatable {
        public var action: KeyAction
        public var keys: [Key]
        public var line: Int

        public init(action: KeyAction, keys: [Key], line: Int) {
            self.action = action
            self.keys = keys
            self.line = line
        }
    }

    /// The defaults with `bindings` in place of theirs; a key bound to two actions that work in
    /// one place (given here or kept by default), or a reserved key, is refused, naming the line.
    public init(_ bindings: [Binding]) throws(KeyBindingError) {
        var keys = Dictionary(uniqueKeysWithValues: KeyAction.allCases.map { ($0, (keys: $0.defaults, line: Int?.none)) })
        for binding in bindings {
            if let key = binding.keys.first(where: Self.reserved.contains) {
                throw KeyBindingError(line: binding.line, message: "\(KeyName.name(key)) cannot be bound: it is the same everywhere")
            }
            keys[binding.action] = (binding.keys, binding.line)
        }
        actions = [:]
        // Bindings from the file first, in file order, so a conflict names the later line.
        let order = KeyAction.allCases.sorted { (keys[$0]!.line ?? 0, $0.rawValue) < (keys[$1]!.line ?? 0, $1.rawValue) }
        for action in order {
            let (bound, line) = keys[action]!
            for key in Set(bound) {
                if let other = actions[key]?.first(where: { $0 != action && $0.overlaps(action) }) {
                    let given = line ?? keys[other]!.line ?? 0
                    throw KeyBindingError(line: given, message: "\(KeyName.name(key)) is bound to both \(other.rawValue) and \(action.rawValue)")
                }
                actions[key, default: []].append(action)
            }
        }
        unbound = [:]
        for action in KeyAction.allCases where keys[action]!.line != nil {
            for key in action.defaults where !(actions[key] ?? []).contains(where: { $0.overlaps(action) }) {
                unbound[key, default: []].append(action)
            }
        }
    }

    /// `key` as `AppUpdate` takes it where `context` is (`nil`: a tab with no keys of its own):
    /// the canonical key of its action there, itself when no action names it, `nil` for a default
    /// key that was unbound. A text field takes keys as typed.
    public func translate(_ key: Key, context: KeyAction.Context? = nil, typing: Bool = false) -> Key? {
        guard !typing else { return key }
        let here = (actions[key] ?? []).filter { $0.works(in: context) }
        if let action = here.first(where: { $0.contexts != nil }) ?? here.first { return action.canonical }
        if let actions = unbound[key], actions.contains(where: { $0.works(in: context) }) { return nil }
        return key
    }

    /// Where `key` (as typed) does something, when not where `context` is: the places of the
    /// actions it is bound to elsewhere (`nil` when it works here, or nowhere).
    public func elsewhere(_ key: Key, context: KeyAction.Context?) -> [KeyAction]? {
        let bound = actions[key] ?? []
        guard !bound.isEmpty, !bound.contains(where: { $0.works(in: context) }) else { return nil }
        return bound
    }

    /// The keys bound to `action`, as the help writes them (`j ↓`).
    public func names(_ action: KeyAction) -> String {
        actions.filter { $0.value.contains(action) }.map { KeyName.name($0.key) }.sorted { ($0.count, $0) < ($1.count, $1) }
            .joined(separator: " ")
    }
}

/// Why `keys.toml` cannot be used: the line and what is wrong there.
public struct KeyBindingError: Error, Sendable, Equatable {
    public let line: Int
    public let message: String
}
