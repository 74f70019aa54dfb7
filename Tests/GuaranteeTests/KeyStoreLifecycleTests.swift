@_spi(Stores) import EventLog
import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The key store's life cycle (issue 17, items 2, 3, 5, 11; item 1's races are
/// `KeyStoreRaceTests`), through the built binaries: a key is destroyed only on
/// the chain's authority; a missing, foreign or orphaned key store or ledger is refused, never
/// papered over; a full disk fails a change with nothing changed and leaves reading possible; a
/// read-only data directory can be read.
@Suite struct KeyStoreLifecycleTests {
    typealias Ledger = LedgerCommandTests.Ledger

    /// Expects exit `status` and one line on stderr (besides the sample catalog's note) naming `message`.
    static func expectFailure(_ out: Harness.Output, _ status: Int32, _ message: String, _ context: String) {
        let lines = out.stderr.split(separator: "\n").filter { !$0.hasPrefix("reel: note:") }
        #expect(out.status == status, "\(context): exit \(out.status), stderr \(out.stderr)")
        #expect(lines.count == 1 && lines[0].hasPrefix("reel: ") && lines[0].contains(message), "\(context): \(out.stderr)")
    }

    static func makeLedger() async throws -> (Ledger, stream: String) {
        let ledger = Ledger()
        for (command, user) in [(["fav", "add", "movie", "603"], "ann"), (["settings", "name", "Ann"], "ann"), (["fav", "add", "movie", "550"], "bob")] {
            let out = try await ledger.reel(command, user: user)
            #expect(out.status == 0, "\(command): \(out.stderr)")
        }
        return await (ledger, try AccountDeletionTests.stream(of: "ann", in: ledger))
    }

    static func python(_ script: String, _ arguments: [String]) async throws -> Harness.Output {
        let out = try await Harness.run("python3", ["-c", script] + arguments)
        #expect(out.status == 0, "python: \(out.stderr)")
        return out
    }

    /// Writes `closed-streams[stream] = state ‖ i64 time` with Python's `lmdb`, as any client can.
    static func forgeClosedStream(_ ledger: Ledger, _ stream: String, state: UInt8) async throws {
        _ = try await python(
            """
            import lmdb, struct, sys
            env = lmdb.open(sys.argv[1] + "/ledger", max_dbs=32)
            db = env.open_db(b"closed-streams")
            with env.begin(write=True) as t:
                t.put(sys.argv[2].encode(), bytes([int(sys.argv[3])]) + struct.pack(">q", 1), db=db)
            env.close()
            """, [ledger.dir, stream, "\(state)"])
    }

    // MARK: - 2. Authority

    @Test func aClosedStreamsRecordWithoutTheDeletionEventDestroysNothing() async throws {
        let (ledger, stream) = try await Self.makeLedger()
        let key = try await AccountDeletionTests.liveKey(ledger, stream)
        try await Self.forgeClosedStream(ledger, stream, state: 0)
        // Reads go on; every change is refused, naming the stream; the key stays.
        await #expect(try AccountDeletionTests.savedIDs(ledger, "ann") == [603])
        for (command, user) in [(["fav", "add", "movie", "13"], "bob"), (["settings", "name", "Bob"], "bob"), (["account", "delete", "--yes"], "bob")] {
            Self.expectFailure(try await ledger.reel(command, user: user), 65, "refusing to destroy its key", "\(command)")
        }
        await #expect(try AccountDeletionTests.storedKey(ledger, stream) == [2] + key)
        await #expect(try AccountDeletionTests.savedIDs(ledger, "ann") == [603])
        #expect(try await ledger.reel(["accounts"]).status == 0)
        #expect(try await ledger.reel(["projections", "rebuild", "--check"]).status == 0)
        // And a forged "destroyed" record makes nothing unreadable either.
        try await Self.forgeClosedStream(ledger, stream, state: 1)
        await #expect(try AccountDeletionTests.storedKey(ledger, stream) == [2] + key)
        #expect(try await ledger.reel(["projections", "rebuild"]).status == 0)
        await #expect(try AccountDeletionTests.savedIDs(ledger, "ann") == [603])
    }

    /// The chain's hashes are keyless: a well-formed, well-linked `account-deleted` envelope can be
    /// appended by anyone able to write `ledger/`. It is no authority: its payload was not sealed
    /// under the stream's key.
    @Test func aForgedButWellChainedDeletionEventDestroysNothing() async throws {
        let (ledger, stream) = try await Self.makeLedger()
        let key = try await AccountDeletionTests.liveKey(ledger, stream)
        _ = try await Self.python(
            """
            import lmdb, struct, hashlib, os, sys, time
            env = lmdb.open(sys.argv[1] + "/ledger", max_dbs=32)
            stream = sys.argv[2].encode()
            dbs = {n: env.open_db(n.encode()) for n in ("events", "streams", "stream-index", "event-ids", "meta", "closed-streams")}
            now = int(time.time() * 1e6)
            with env.begin(write=True) as t:
                hp, ht, hh = struct.unpack(">Qq32s", t.get(b"head", db=dbs["meta"]))
                v = struct.unpack(">Q", t.get(stream, db=dbs["streams"]))[0] + 1
                pos, eid, kind, ct = hp + 1, os.urandom(16), b"account-deleted", os.urandom(40)
                body = (bytes([1]) + struct.pack(">Q", pos) + hh + eid + struct.pack(">QqH", v, now, 1) + bytes([len(stream)]) + stream
                        + bytes([len(kind)]) + kind + bytes([1]) + os.urandom(12) + struct.pack(">I", len(ct)) + ct)
                h = hashlib.sha256(body).digest()
                t.put(struct.pack(">Q", pos), body + h, db=dbs["events"])
                t.put(stream, struct.pack(">Q", v), db=dbs["streams"])
                t.put(stream + b"\\0" + struct.pack(">Q", v), struct.pack(">Q", pos), db=dbs["stream-index"])
                t.put(eid, struct.pack(">Q", pos), db=dbs["event-ids"])
                t.put(b"head", struct.pack(">Qq32s", pos, now, h), db=dbs["meta"])
                t.put(stream, bytes([0]) + struct.pack(">q", now), db=dbs["closed-streams"])
            env.close()
            """, [ledger.dir, stream])
        for command in [["audit", "verify"], ["accounts"], ["fav", "add", "movie", "13"], ["projections", "rebuild"]] {
            _ = try await ledger.reel(command, user: "bob")
            await #expect(try AccountDeletionTests.storedKey(ledger, stream) == [2] + key, "\(command) destroyed the key")
        }
        Self.expectFailure(try await ledger.reel(["fav", "add", "movie", "13"], user: "bob"), 65, "was not sealed under the stream's key", "fav add")
    }

    /// A `keys/` restored alone from a backup made before a deletion holds the deleted account's
    /// key wrapped under a generation of the keyring that the deletion removed: it is refused as a
    /// copy from before a deletion, one line, by reads and writes alike, and writes nothing (until
    /// the keyring, the key store opened nothing of any account: there is no key to destroy
    /// again). The data directory's own `keys/` put back serves as before.
    @Test func aKeyStoreRestoredFromBeforeADeletionIsRefusedAsACopyFromBeforeIt() async throws {
        let (ledger, stream) = try await Self.makeLedger()
        let key = try await AccountDeletionTests.liveKey(ledger, stream)
        let backup = temporaryDirectory() + "/backup"
        #expect(try await ledger.reel(["backup", backup]).status == 0)
        #expect(try await ledger.reel(["account", "delete", "--yes"], user: "ann").status == 0)
        try FileManager.default.moveItem(atPath: ledger.dir + "/keys", toPath: ledger.dir + "/keys-aside")
        try FileManager.default.copyItem(atPath: backup + "/keys", toPath: ledger.dir + "/keys")
        await #expect(try AccountDeletionTests.storedKey(ledger, stream) == [2] + key, "the restored copy holds the key, wrapped")
        await #expect(try AccountDeletionTests.openedKey(ledger, stream) == nil, "nothing in the keyring opens it")
        for command in Self.readsAndWrites + [["history"]] {
            Self.expectFailure(try await ledger.reel(command, user: "ann"), 65, "a copy from before a deletion", "\(command)")
        }
        await #expect(try AccountDeletionTests.storedKey(ledger, stream) == [2] + key, "the refused copy was written to")
        try FileManager.default.removeItem(atPath: ledger.dir + "/keys")
        try FileManager.default.moveItem(atPath: ledger.dir + "/keys-aside", toPath: ledger.dir + "/keys")
        await #expect(try AccountDeletionTests.storedKey(ledger, stream)?.first == 0)
        #expect(try AccountDeletionTests.files(in: ledger, containing: key) == [])
        await #expect(try AccountDeletionTests.savedIDs(ledger, "bob") == [550])
        #expect(try await ledger.reel(["audit", "verify"]).status == 0)
    }

    // MARK: - 3. Missing and foreign stores

    static let readsAndWrites: [[String]] = [["saved"], ["accounts"], ["audit", "verify"], ["projections", "rebuild"], ["fav", "add", "movie", "13"]]

    /// Processes sharing a data directory with other configuration directories (another HOME or
    /// XDG_CONFIG_HOME: sudo, a service unit, another shell) find its keyring where `keys/`
    /// recorded it was made. Moved away, it is refused in one line naming where it was made and
    /// where it was looked for; found again where `REEL_KEYRING` says.
    @Test func processesWithAnotherHomeFindTheKeyringWhereItWasMade() async throws {
        let ledger = Ledger()
        let mine = temporaryDirectory("config-mine"), theirs = temporaryDirectory("config-theirs")
        let made = ["REEL_KEYRING": "", "XDG_CONFIG_HOME": mine]
        let other = ["REEL_KEYRING": "", "XDG_CONFIG_HOME": theirs, "HOME": temporaryDirectory("home-theirs")]
        #expect(try await ledger.reel(["fav", "add", "movie", "603"], user: "ann", environment: made).status == 0)
        #expect(FileManager.default.fileExists(atPath: mine + "/reel/keyrings"), "the keyring is made in the configuration directory")
        #expect(!FileManager.default.fileExists(atPath: ledger.dir + "/keyrings"), "and not in the data directory")
        let read = try await ledger.reel(["saved", "--json"], user: "ann", environment: other)
        #expect(read.status == 0 && read.stdout.contains("603"), "\(read.stderr)")
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "bob", environment: other).status == 0)
        #expect(!FileManager.default.fileExists(atPath: theirs + "/reel/keyrings"), "no second keyring was made")

        let aside = temporaryDirectory("keyring-aside") + "/keyrings"
        try FileManager.default.moveItem(atPath: mine + "/reel/keyrings", toPath: aside)
        let refused = try await ledger.reel(["saved"], user: "ann", environment: other)
        Self.expectFailure(refused, 65, "which is missing", "the keyring moved away")
        #expect(refused.stderr.contains(mine + "/reel/keyrings") && refused.stderr.contains(theirs + "/reel/keyrings"), "\(refused.stderr)")
        let moved = try await ledger.reel(["saved", "--json"], user: "bob", environment: ["REEL_KEYRING": aside])
        #expect(moved.status == 0 && moved.stdout.contains("550"), "\(moved.stderr)")
    }

    @Test func aMissingKeyStoreIsRefusedAndNoneIsMade() async throws {
        let (ledger, _) = try await Self.makeLedger()
        try FileManager.default.moveItem(atPath: ledger.dir + "/keys", toPath: ledger.dir + "/keys-aside")
        for command in Self.readsAndWrites {
            Self.expectFailure(try await ledger.reel(command, user: "ann"), 65, "the key store", "\(command)")
            #expect(!FileManager.default.fileExists(atPath: ledger.dir + "/keys"), "\(command) made a key store")
        }
        try FileManager.default.moveItem(atPath: ledger.dir + "/keys-aside", toPath: ledger.dir + "/keys")
        await #expect(try AccountDeletionTests.savedIDs(ledger, "ann") == [603])
    }

    @Test func anotherLedgersKeyStoreIsRefused() async throws {
        let (ledger, _) = try await Self.makeLedger()
        let (other, _) = try await Self.makeLedger()
        try FileManager.default.removeItem(atPath: ledger.dir + "/keys")
        try FileManager.default.copyItem(atPath: other.dir + "/keys", toPath: ledger.dir + "/keys")
        for command in Self.readsAndWrites {
            Self.expectFailure(try await ledger.reel(command, user: "ann"), 65, "does not belong to this ledger", "\(command)")
        }
    }

    /// Makes `ledger`'s `keys/` as Reel wrote it before the keyring: every live key bare
    /// (`0x01 ‖ 32 bytes`, as the keyring opens it), no `meta/kek`, no `meta/keyring-path`.
    static func unwrapKeys(_ ledger: Ledger) async throws {
        let listed = try await python(
            """
            import lmdb, sys
            env = lmdb.open(sys.argv[1] + "/keys", max_dbs=8, readonly=True)
            with env.begin() as t:
                for k, v in t.cursor(db=env.open_db(b"stream-keys", txn=t, create=False)):
                    if v[:1] == b"\\x02": print(k.decode())
            env.close()
            """, [ledger.dir])
        var bare: [String] = []
        for stream in listed.stdout.split(separator: "\n").map(String.init) {
            let key = try await #require(try AccountDeletionTests.openedKey(ledger, stream), "\(stream) does not open")
            bare += [stream, "01" + key.map { String(format: "%02x", $0) }.joined()]
        }
        _ = try await python(
            """
            import lmdb, sys
            env = lmdb.open(sys.argv[1] + "/keys", max_dbs=8)
            with env.begin(write=True) as t:
                keys, meta = env.open_db(b"stream-keys", txn=t), env.open_db(b"meta", txn=t)
                for stream, value in zip(sys.argv[2::2], sys.argv[3::2]):
                    t.put(stream.encode(), bytes.fromhex(value), db=keys)
                t.delete(b"kek", db=meta)
                t.delete(b"keyring-path", db=meta)
            env.close()
            """, [ledger.dir] + bare)
    }

    @Test func aLedgerAndKeyStoreFromBeforePairIdsOpenOnlyWithTheirOwnKeys() async throws {
        let (ledger, stream) = try await Self.makeLedger()
        let (other, _) = try await Self.makeLedger()
        let unstamp = """
            import lmdb, sys
            for path in sys.argv[1:]:
                for sub in ("ledger", "keys"):
                    env = lmdb.open(path + "/" + sub, max_dbs=32)
                    with env.begin(write=True) as t:
                        t.delete(b"pair", db=env.open_db(b"meta", txn=t))
                    env.close()
            """
        // As Reel wrote them before pair ids, which was before the keyring: keys bare.
        try await Self.unwrapKeys(ledger)
        try await Self.unwrapKeys(other)
        _ = try await Self.python(unstamp, [ledger.dir, other.dir])
        // Its own (unstamped) keys: opens, and the pair id is stamped again.
        await #expect(try AccountDeletionTests.savedIDs(ledger, "ann") == [603])
        _ = try await Self.python(unstamp, [ledger.dir])
        // Another ledger's unstamped keys: it lacks this ledger's streams.
        try FileManager.default.removeItem(atPath: ledger.dir + "/keys")
        try FileManager.default.copyItem(atPath: other.dir + "/keys", toPath: ledger.dir + "/keys")
        Self.expectFailure(try await ledger.reel(["saved"], user: "ann"), 65, "holds no key for", "saved")
        Self.expectFailure(try await ledger.reel(["fav", "add", "movie", "13"], user: "ann"), 65, "holds no key for", "fav add")
        _ = stream
    }

    @Test func anOlderCopyOfTheKeyStoreLackingAKeyIsRefusedForThatStream() async throws {
        let (ledger, _) = try await Self.makeLedger()
        let old = temporaryDirectory() + "/keys"
        try FileManager.default.copyItem(atPath: ledger.dir + "/keys", toPath: old)
        #expect(try await ledger.reel(["fav", "add", "movie", "13"], user: "cy").status == 0)
        try FileManager.default.removeItem(atPath: ledger.dir + "/keys")
        try FileManager.default.copyItem(atPath: old, toPath: ledger.dir + "/keys")
        Self.expectFailure(try await ledger.reel(["saved"], user: "cy"), 65, "holds no key for stream", "saved of the newer account")
        Self.expectFailure(try await ledger.reel(["fav", "add", "movie", "550"], user: "cy"), 65, "holds no key for stream", "fav add to it")
        Self.expectFailure(try await ledger.reel(["projections", "rebuild", "--check"]), 65, "holds no key for stream", "rebuild --check")
        await #expect(try AccountDeletionTests.savedIDs(ledger, "ann") == [603], "the older accounts still read")
    }

    @Test func anEmptyOrMissingLedgerBesideKeysIsRefusedAndNotStartedAfresh() async throws {
        let (ledger, _) = try await Self.makeLedger()
        let data = ledger.dir + "/ledger/data.mdb"
        try FileManager.default.moveItem(atPath: data, toPath: data + ".aside")
        try #require(FileManager.default.createFile(atPath: data, contents: Data()))
        for command in Self.readsAndWrites {
            Self.expectFailure(try await ledger.reel(command, user: "ann"), 65, "is missing or empty", "\(command), empty ledger")
            #expect((try FileManager.default.attributesOfItem(atPath: data)[.size] as? Int) == 0, "\(command) wrote into it")
        }
        try FileManager.default.removeItem(atPath: ledger.dir + "/ledger")
        for command in Self.readsAndWrites {
            Self.expectFailure(try await ledger.reel(command, user: "ann"), 65, "is missing or empty", "\(command), no ledger")
            #expect(!FileManager.default.fileExists(atPath: data), "\(command) made a ledger")
        }
        // A valid but new LMDB file where the ledger was.
        _ = try await Self.python("import lmdb, sys; lmdb.open(sys.argv[1] + '/ledger', max_dbs=32).close()", [ledger.dir])
        for command in Self.readsAndWrites {
            Self.expectFailure(try await ledger.reel(command, user: "ann"), 65, "is missing or empty", "\(command), a new empty ledger")
        }
    }

    // MARK: - 5. A full disk

    /// A small tmpfs mounted for the test (root only; skipped with a message elsewhere).
    static func mountTmpfs(_ size: String) async -> String? {
        let dir = temporaryDirectory("tmpfs")
        guard getuid() == 0, (try? await Harness.run("mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", dir]).status) == 0 else {
            print("skipped: mounting a tmpfs needs root")
            return nil
        }
        return dir
    }

    static func unmount(_ dir: String) { Harness.runInDefer("umount", [dir]) }

    static func fill(_ dir: String) async throws {
        _ = try await Harness.run("sh", ["-c", "dd if=/dev/zero of=\"$1/fill\" bs=4096 2>/dev/null; true", "sh", dir])
    }

    @Test func aFullDiskFailsAChangeWithNothingChangedAndReadsGoOn() async throws {
        guard let mount = await Self.mountTmpfs("3m") else { return }
        defer { Self.unmount(mount) }
        let ledger = Ledger(dir: mount + "/data")
        for user in ["ann", "bob", "cy"] { #expect(try await ledger.reel(["fav", "add", "movie", "603"], user: user).status == 0) }
        let stream = try await AccountDeletionTests.stream(of: "bob", in: ledger)
        let key = try await AccountDeletionTests.liveKey(ledger, stream)
        let events = try await ledger.eventCount()
        try await Self.fill(mount)

        Self.expectFailure(try await ledger.reel(["account", "delete", "--yes"], user: "bob"), 73, "no space left", "delete")
        await #expect(try AccountDeletionTests.storedKey(ledger, stream) == [2] + key, "the failed deletion destroyed the key")
        await #expect(try ledger.eventCount() == events, "the failed deletion appended")
        // New accounts until the disk refuses one: each either succeeds or changes nothing.
        var refused = false
        for n in 0..<40 where !refused {
            let out = try await ledger.reel(["fav", "add", "movie", "603"], user: "new\(n)")
            if out.status != 0 {
                Self.expectFailure(out, 73, "no space left", "fav add on a full disk")
                Self.expectFailure(try await ledger.reel(["account", "export"], user: "new\(n)"), 66, "there is no account", "the refused account")
                refused = true
            }
        }
        #expect(refused, "the disk never filled")
        // And changes of an existing account (the ledger's own commit fails), until one is refused.
        // Twenty movies of the sample catalog (it refuses ids it does not hold), added and
        // removed in turn: twenty events each time.
        refused = false
        let ids = [11, 13, 19, 73, 104, 105, 122, 128, 129, 155, 238, 240, 274, 278, 338, 346, 348, 387, 389, 424].map(String.init)
        var round = 0
        while !refused && round < 20 {
            round += 1
            let count = try await ledger.eventCount()
            let out = try await ledger.reel(["fav", round % 2 == 1 ? "add" : "remove", "movie"] + ids, user: "ann")
            if out.status != 0 {
                Self.expectFailure(out, 73, "no space left", "fav add to an existing account on a full disk")
                await #expect(try ledger.eventCount() == count, "the refused change appended")
                refused = true
            }
        }
        #expect(refused, "the ledger never filled")
        // Reads keep working on the full disk.
        await #expect(try AccountDeletionTests.savedIDs(ledger, "bob") == [603])
        #expect(try await ledger.reel(["accounts"]).status == 0)
        #expect(try await ledger.reel(["audit", "verify"]).status == 0)
        #expect(try await ledger.reel(["projections", "rebuild", "--check"]).status == 0)

        try FileManager.default.removeItem(atPath: mount + "/fill")
        #expect(try await ledger.reel(["account", "delete", "--yes"], user: "bob").status == 0)
        await #expect(try AccountDeletionTests.storedKey(ledger, stream)?.first == 0)
        #expect(try await ledger.reel(["audit", "verify"]).status == 0)
        #expect(try await Harness.python("verify_ledger.py", [ledger.dir + "/ledger"]).status == 0)
    }

    /// Whatever space is left when a deletion starts, it either fails with 73 and nothing changed
    /// or succeeds with the key gone: never a commit followed by a failure (or a SIGBUS as LMDB
    /// makes the replacement's lock file through its map). With the keyring on the same full disk
    /// (the default: `~/.config` beside the data), its rotation is written before the commit too,
    /// and what is left after the commit is a rename.
    @Test(arguments: [false, true])
    func aDeletionOnANearlyFullDiskIsWhollyDoneOrNotAtAll(keyringOnTheSameDisk: Bool) async throws {
        guard let mount = await Self.mountTmpfs("3m") else { return }
        defer { Self.unmount(mount) }
        var outcomes: Set<Int32> = []
        // A deletion with the keyring on the same disk needed between 128 and 144 KiB free once
        // the ledger kept its Merkle tree (a few more pages per write): the sweep goes past it.
        for free in stride(from: 16_384, through: 163_840, by: 8_192) {
            var ledger = Ledger(dir: mount + "/data")
            if keyringOnTheSameDisk { ledger.keyring = mount + "/keyring" }
            for user in ["ann", "bob"] { #expect(try await ledger.reel(["fav", "add", "movie", "603"], user: user).status == 0) }
            let stream = try await AccountDeletionTests.stream(of: "ann", in: ledger)
            let key = try await AccountDeletionTests.liveKey(ledger, stream)
            let events = try await ledger.eventCount()
            _ = try await Harness.run("sh", ["-c", "free=$(df -B1 --output=avail \"$1\" | tail -1); head -c $((free - $2)) /dev/zero > \"$1/fill\" 2>/dev/null; true", "sh", mount, "\(free)"])
            let out = try await ledger.reel(["account", "delete", "--yes"], user: "ann")
            outcomes.insert(out.status)
            try? FileManager.default.removeItem(atPath: mount + "/fill")
            if out.status == 0 {
                await #expect(try AccountDeletionTests.storedKey(ledger, stream)?.first == 0, "\(free) bytes free: deleted, key live")
                #expect(try AccountDeletionTests.files(in: ledger, containing: key) == [], "\(free) bytes free")
            } else {
                Self.expectFailure(out, 73, "nothing was changed", "\(free) bytes free")
                await #expect(try AccountDeletionTests.storedKey(ledger, stream) == [2] + key, "\(free) bytes free: refused, key gone")
                await #expect(try ledger.eventCount() == events, "\(free) bytes free: refused, yet appended")
            }
            #expect(try await ledger.reel(["audit", "verify"]).status == 0)
            if keyringOnTheSameDisk {
                // Done: the deleted key's generation is gone. Refused: the file's is there (a
                // next generation the refusal could not take back on the full disk wraps nothing).
                let generations = try await #require(try AccountDeletionTests.keyring(of: ledger).read()).generations
                #expect(out.status == 0 ? generations == [2] : generations.first == 1, "\(free) bytes free: \(generations)")
            }
            try FileManager.default.removeItem(atPath: mount + "/data")
            try? FileManager.default.removeItem(atPath: mount + "/keyring")
        }
        #expect(outcomes == [0, 73], "the sweep should cross from refused to done: \(outcomes)")
    }

    // MARK: - 11. Read-only

    @Test func aLedgerOnAReadOnlyFileSystemCanBeReadAndVerified() async throws {
        guard let mount = await Self.mountTmpfs("16m") else { return }
        defer { Self.unmount(mount) }
        let ledger = Ledger(dir: mount + "/data")
        #expect(try await ledger.reel(["fav", "add", "movie", "603"], user: "ann").status == 0)
        #expect(try await ledger.reel(["settings", "name", "Ann"], user: "ann").status == 0)
        #expect(try await Harness.run("mount", ["-o", "remount,ro", mount]).status == 0)
        for command in [["accounts"], ["saved"], ["history"], ["settings"], ["audit", "verify"], ["account", "export", "--no-details"]] {
            let out = try await ledger.reel(command, user: "ann")
            #expect(out.status == 0, "\(command) on a read-only file system: \(out.stderr)")
        }
        await #expect(try AccountDeletionTests.savedIDs(ledger, "ann") == [603])
        for command in [["fav", "add", "movie", "550"], ["settings", "name", "Bo"], ["account", "delete", "--yes"]] {
            Self.expectFailure(try await ledger.reel(command, user: "ann"), 69, "read-only", "\(command)")
        }
    }

    @Test func anotherUsersDataDirectoryIsAPermissionErrorNotAMissingLedger() async throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return }
        let (ledger, _) = try await Self.makeLedger()
        for command in [["accounts"], ["saved"], ["audit", "verify"]] {
            let out = try await Harness.run("/usr/sbin/runuser", ["-u", "nobody", "--", "env", "REEL_DATA_DIR=\(ledger.dir)", Harness.binaries + "/reel"] + command)
            Self.expectFailure(out, 69, "permission denied", "\(command) as another user")
        }
    }
}

/// What a deletion leaves (issue 17, item 19): the TMDb response cache, which would tell which
/// titles the account looked up and in which language, goes whole.
@Suite struct DeletionLeavesNoCacheTests {
    @Test func deletingAnAccountRemovesTheResponseCacheWithItsTitlesAndLanguage() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        #expect(try await home.reel(["settings", "language", "de-DE"]).status == 0)
        #expect(try await home.reel(["fav", "add", "movie", "550", "603"]).status == 0)
        #expect(try await home.reel(["saved"]).status == 0)
        let cache = home.data + "/cache/data.mdb"
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        #expect(before.range(of: Data("de-DE".utf8)) != nil, "the cache should hold the account's requests first")
        let out = try await home.reel(["account", "delete", "--yes"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.data + "/cache"), "the response cache is still there")
        for file in try AccountDeletionTests.files(under: home.data) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: home.data + "/" + file))
            #expect(bytes.range(of: Data("language=de-DE".utf8)) == nil && bytes.range(of: Data("/movie/550".utf8)) == nil, "\(file)")
        }
        // Browsing works afterwards, with a new cache.
        #expect(try await home.reel(["show", "movie", "550"]).status == 0)
    }
}
