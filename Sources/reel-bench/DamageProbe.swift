import ArgumentParser
import Foundation
import LMDB

/// Proves `DamageGuard` in a process of its own (it ends the process): writes an environment,
/// cuts its `data.mdb` short while it is open, and reads it, so the read faults inside the map and
/// must end as one line and exit 65; or (`--wild`) faults outside every map, which is a bug and
/// must stay a signal.
struct DamageProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "damage-probe", abstract: "Fault inside an LMDB map (or, with --wild, outside one), for the tests.")

    @Option(help: "An empty directory for the environment.") var directory: String
    @Flag(help: "Fault on an address outside every map instead.") var wild = false

    func run() throws {
        DamageGuard.configure(prefix: "reel-bench: ", exitStatus: 65)
        let env = try Environment.open(at: directory)
        let db: Database<UInt64, [UInt8]> = try env.database(named: "pages")
        try env.write { txn in
            for key: UInt64 in 0..<2_000 { try txn.put(db, key, [UInt8](repeating: UInt8(key & 0xff), count: 1_000)) }
        }
        if wild {
            let address = UnsafeMutablePointer<UInt8>(bitPattern: 8)!
            address.pointee = 1
        }
        // The file shrinks under the open map: LMDB's pages past the new end are gone.
        guard truncate(directory + "/data.mdb", 3 * 4_096) == 0 else { throw ValidationError("cannot truncate") }
        var sum = 0
        try env.read { txn in
            try txn.withCursor(db) { cursor in
                var entry = try cursor.first()
                while let e = entry {
                    sum &+= Int(e.value.last ?? 0)
                    entry = try cursor.next()
                }
            }
        }
        print("read everything (\(sum)): the fault did not happen")
    }
}
