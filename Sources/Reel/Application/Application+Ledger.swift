import EventLog
import Failures
import Foundation

extension Application {
    /// Checks the whole ledger: every event's hash chain, seal and index entry, and the head
    /// against `expectedHead` when given (`progress`: events checked, total).
    public func verifyLedger(expectedHead: ChainHash? = nil, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> VerificationReport {
        try existingLog().verify(expectedHead: expectedHead, progress: progress)
    }

    /// Replays the whole log into fresh projections, reports drift from the live ones and swaps
    /// them in (with `checkOnly`, compares only).
    public func rebuildProjections(checkOnly: Bool, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> RebuildReport {
        try requiredLedger().rebuildProjections(checkOnly: checkOnly, progress: progress)
    }
}

extension Application {
    /// Every envelope of the log, in order, as the documented JSON form (`Schemas/envelope.schema.json`).
    public func envelopes() throws -> [EnvelopeJSON] {
        try existingLog().read(from: 1, maxCount: .max).map { EnvelopeJSON($0.envelope) }
    }
}
