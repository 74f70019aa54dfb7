import EventLog
import Ledger

/// One lane's share of a rebuild: the projections of the streams `EventLog.replay` sends to its
/// partition, built from nothing. Only its lane touches it while a batch runs.
///
/// Events come one at a time; consecutive events of one stream (an account's burst of actions)
/// are gathered into a run and applied together, so the state leaves its dictionary once per run.
final class PartitionReplay: @unchecked Sendable {
    private(set) var set: ProjectionSet
    private let projector: Projector
    private var run: [Replayed] = []

    init(projector: Projector) {
        self.projector = projector
        set = ProjectionSet(position: 0, projector: projector)
    }

    /// Decodes `view` and applies it (when its run ends, or at `flush`).
    func feed(_ view: EventView) throws {
        let event = try Replayed(view, projector: projector)
        if let last = run.last, last.stream != event.stream { try flush() }
        run.append(event)
    }

    /// Applies the run gathered so far.
    func flush() throws {
        guard !run.isEmpty else { return }
        try set.apply(contentsOf: run)
        run.removeAll(keepingCapacity: true)
    }
}
