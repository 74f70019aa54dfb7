import Foundation

/// One choice of a picker: the value chosen and the label shown.
public struct PickerItem: Sendable, Equatable {
    public var value: String
    public var label: String

    public init(_ value: String, _ label: String) {
        self.value = value
        self.label = label
    }
}

/// A list to choose one from (a language, an account), narrowed as you type.
public struct Picker: Sendable, Equatable {
    public enum Purpose: Sendable, Equatable { case language, account }

    public let purpose: Purpose
    public let items: [PickerItem]
    public private(set) var filter = TextField(limit: 40)
    public private(set) var shown: [PickerItem]
    public var cursor = ListCursor()

    /// The picker with the cursor on `selected`'s item, if it has one.
    public init(_ purpose: Purpose, items: [PickerItem], selected: String?, visible: Int) {
        self.purpose = purpose
        self.items = items
        shown = items
        let index = items.firstIndex { $0.value == selected } ?? 0
        cursor = ListCursor().moved(to: index, count: items.count, visible: visible)
    }

    public var current: PickerItem? { shown.indices.contains(cursor.position) ? shown[cursor.position] : nil }

    /// The filter typed into: only items whose value or label (not its note in brackets) contain
    /// it, and an item of no value (the account picker's `a new account…`) always. A language tag
    /// with a region typed whole (`de-DE`, `en_us`) is offered first as it is.
    public mutating func narrow(to field: TextField, visible: Int) {
        filter = field
        let text = field.text.lowercased()
        func name(_ label: String) -> String { label.components(separatedBy: " (").first?.lowercased() ?? label.lowercased() }
        shown = text.isEmpty ? items : items.filter { $0.value.isEmpty || $0.value.lowercased().contains(text) || name($0.label).contains(text) }
        let typed = field.text.trimmingCharacters(in: .whitespaces)
        if purpose == .language, typed.contains(where: { $0 == "-" || $0 == "_" }), typed.count >= 4,
            !shown.contains(where: { $0.value.lowercased() == typed.lowercased() })
        {
            shown.insert(PickerItem(typed, "use \(typed): a language with its region"), at: 0)
        }
        cursor = ListCursor().moved(to: 0, count: shown.count, visible: visible)
    }
}
