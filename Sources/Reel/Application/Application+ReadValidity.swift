import EventLog
import Foundation
import Ledger

extension Application {
    /// What an answer about `handle` read now depends on (`ReadValidity`), its `until` left at
    /// the end of time: the account's stream and version, and the response cache's generation.
    /// Cheap (two short reads, no decoding): made to check a kept answer before reusing it.
    public func readStamp(of handle: AccountHandle) throws -> ReadValidity {
        var stream: StreamID?
        var version: UInt64 = 0
        if let ledger = try existingLedger(for: handle) {
            do {
                let found = try ledger.resolve(handle)
                stream = found
                version = try ledger.log.version(of: found)
            } catch ReelError.noAccount {}
        }
        return ReadValidity(stream: stream, streamVersion: version, cacheGeneration: cacheGeneration(), until: .max)
    }

    /// Whether an answer read with `validity` would be read the same now.
    public func stillHolds(_ validity: ReadValidity, for handle: AccountHandle) throws -> Bool {
        let now = Self.nowMicroseconds()
        guard now < validity.until else { return false }
        return validity.holds(against: try readStamp(of: handle), at: now)
    }

    /// The generation of the response cache the catalog's details and OMDb's scores are read
    /// from; -1 when there is none (the sample catalog's facts never change).
    func cacheGeneration() -> Int {
        if let omdb = try? catalogs.omdb(), let generation = omdb.cacheGeneration { return generation }
        return (try? catalogs.catalog())?.cache?.generation() ?? -1
    }

    static func nowMicroseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }
}
