/// The events a command appends and what it did, item by item.
public struct Decision: Sendable, Equatable {
    public let events: [DomainEvent]
    public let outcomes: [Outcome]

    public var changesNothing: Bool { events.isEmpty }
}
