#!/usr/bin/env python3
"""Run the built `reel` against damaged, missing, foreign, full and read-only data directories and
print what each command did: its exit code, whether it died of a signal or printed a backtrace,
how many lines it wrote to stderr, and whether anything in the data directory changed.

Usage: python3 Tools/fault_matrix.py [--reel PATH] [--json] [--only SUBSTRING]

Each fault starts from a copy of one ledger (three accounts, a few hundred events) made once with
the sample catalog. Expected outcome per command is in the table below: a clean exit code, one
line on stderr, no signal, and "changed: no" where the command must not write (any failure, and
any read). Exit 0 when every row is as expected, 1 otherwise. Faults that need root (tmpfs, a
read-only mount, another user) are skipped with a note when not root.
"""
import hashlib, json, os, random, shutil, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def args():
    reel, as_json, only = os.path.join(ROOT, ".build", "debug", "reel"), False, None
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        if a == "--reel":
            reel = argv.pop(0)
        elif a == "--json":
            as_json = True
        elif a == "--only":
            only = argv.pop(0)
        else:
            sys.exit("usage: fault_matrix.py [--reel PATH] [--json] [--only SUBSTRING]")
    return reel, as_json, only


REEL, AS_JSON, ONLY = args()
TIMEOUT = 30
ENV = {k: v for k, v in os.environ.items() if not k.startswith(("TMDB_", "REEL_"))}
ENV.update({"NO_COLOR": "1", "REEL_OFFLINE": "1"})


def run(data, *argv, stdout=None, user=None, extra=None):
    env = dict(ENV, REEL_DATA_DIR=data, XDG_CONFIG_HOME=data + ".config", **(extra or {}))
    command = [REEL, *argv]
    if user:
        command = ["runuser", "-u", user, "--", "env", "REEL_DATA_DIR=" + data, REEL, *argv]
    out = open(stdout, "wb") if isinstance(stdout, str) else subprocess.PIPE
    try:
        return subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        # A hang: reported as exit "hang" (the process was killed).
        return subprocess.CompletedProcess(command, "hang", e.stdout or b"", e.stderr or b"")
    finally:
        if isinstance(stdout, str):
            out.close()


def fingerprint(data):
    """Digest of every file under the data directory except lock files and the cache."""
    h = hashlib.sha256()
    for base, dirs, files in sorted(os.walk(data)):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(base, name)
            rel = os.path.relpath(path, data)
            if name == "lock.mdb" or rel.startswith("cache") or name in ("keys.lock", "open.lock"):
                continue
            h.update(rel.encode())
            try:
                with open(path, "rb") as f:
                    h.update(f.read())
            except OSError:
                h.update(b"?")
    return h.hexdigest()


def build_base(root):
    base = os.path.join(root, "base")
    ids = [str(i) for i in range(10001, 10201)]
    for user, cmd in [("ann", ["fav", "add", "movie", *ids]), ("ann", ["settings", "name", "Ann"]),
                      ("bob", ["fav", "add", "movie", "550", "603"]), ("cy", ["fav", "add", "tv", "1399"]),
                      ("ann", ["fav", "remove", "movie", *ids[:50]])]:
        # Offline with a TMDb credential, ids are saved unchecked: the bundled sample catalog
        # (no credential) refuses the 200 ids it does not hold.
        p = run(base, *cmd, "--user", user, extra={"TMDB_API_TOKEN": "fault-matrix"})
        if p.returncode != 0:
            sys.exit("cannot build the base ledger: " + p.stderr.decode(errors="replace"))
    run(base, "saved", "--user", "bob")  # fills nothing offline; the cache may stay empty
    return base


def copy(base, root, name):
    target = os.path.join(root, name)
    shutil.copytree(base, target, symlinks=True)
    return target


def truncate(path, size):
    with open(path, "r+b") as f:
        f.truncate(size)


def overwrite(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def tamper(ledger, *argv):
    subprocess.run([sys.executable, os.path.join(HERE, "tamper_ledger.py"), ledger, *argv], check=True, capture_output=True)


def lmdb_put(env_dir, db, key, value, delete=False):
    import lmdb
    env = lmdb.open(env_dir, max_dbs=32)
    d = env.open_db(db)
    with env.begin(write=True) as t:
        if delete:
            t.delete(key, db=d)
        else:
            t.put(key, value, db=d)
    env.close()


def stream_of(data, handle):
    p = run(data, "accounts", "--json")
    for a in json.loads(p.stdout)["accounts"]:
        if a.get("user") == handle:
            return a["stream"]
    raise SystemExit("no account " + handle)


READS = [["accounts"], ["saved", "--user", "ann"], ["history", "--user", "ann"], ["audit", "verify"], ["projections", "rebuild", "--check"]]
WRITE = ["fav", "add", "movie", "13", "--user", "bob"]


def faults():
    """(name, item, prepare(data) -> extra, commands [(argv, expected exit codes, may change)])"""
    def keys_removed(d):
        shutil.rmtree(d + "/keys")

    def keys_foreign(d):
        other = d + ".other"
        run(other, "fav", "add", "movie", "603", "--user", "zed")
        shutil.rmtree(d + "/keys")
        shutil.copytree(other + "/keys", d + "/keys")

    def ledger_empty(d):
        truncate(d + "/ledger/data.mdb", 0)

    def ledger_removed(d):
        shutil.rmtree(d + "/ledger")

    def event_deleted(d):
        tamper(d + "/ledger", "delete", "40")

    def events_swapped(d):
        tamper(d + "/ledger", "swap", "40", "41")

    def duplicate_rehashed(d):
        tamper(d + "/ledger", "insert", "40")
        tamper(d + "/ledger", "rehash-from", "40", "--update-head")

    def size(path):
        return os.path.getsize(path)

    def cut(fraction):
        def f(d):
            p = d + "/ledger/data.mdb"
            truncate(p, int(size(p) * fraction) // 4096 * 4096)
        return f

    def two_pages(which):
        def f(d):
            truncate(d + "/" + which + "/data.mdb", 8192)
        return f

    def last_page_cut(which):
        def f(d):
            p = d + "/" + which + "/data.mdb"
            truncate(p, size(p) - 2048)
        return f

    def half(which):
        def f(d):
            p = d + "/" + which + "/data.mdb"
            truncate(p, size(p) // 2 // 4096 * 4096)
        return f

    def zeroed(d):
        p = d + "/ledger/data.mdb"
        start = max(8192, size(p) // 2 // 4096 * 4096 - 32768)
        overwrite(p, start, bytes(65536))

    def random_bytes(d):
        p = d + "/ledger/data.mdb"
        rnd = random.Random(17)
        overwrite(p, size(p) // 2 // 4096 * 4096, bytes(rnd.randrange(256) for _ in range(4096)))

    def cache_truncated(d):
        run(d, "show", "movie", "550")  # makes the cache
        os.makedirs(d + "/cache", exist_ok=True)
        p = d + "/cache/data.mdb"
        if os.path.exists(p):
            truncate(p, max(4096, size(p) // 2))
        else:
            with open(p, "wb") as f:
                f.write(b"\0" * 4096)

    def cleared_cache(d):
        cache_truncated(d)
        run(d, "cache", "clear")

    def stream_index_edited(d):
        s = stream_of(d, "bob").encode()
        lmdb_put(d + "/ledger", b"stream-index", s + b"\x00" + struct.pack(">Q", 2), None, delete=True)

    def event_ids_edited(d):
        import lmdb
        env = lmdb.open(d + "/ledger", max_dbs=32)
        db = env.open_db(b"event-ids")
        with env.begin(write=True) as t:
            k, v = next(iter(t.cursor(db=db)))
            t.put(k, struct.pack(">Q", struct.unpack(">Q", v)[0] + 1), db=db)
        env.close()

    def forged_closed(d):
        lmdb_put(d + "/ledger", b"closed-streams", stream_of(d, "bob").encode(), b"\x00" + struct.pack(">q", 1))

    reads = [(r, {65}) for r in READS]
    return [
        ("keys/ removed", 3, keys_removed, reads + [(WRITE, {65})]),
        ("keys/ of another ledger", 3, keys_foreign, reads + [(WRITE, {65})]),
        ("ledger/data.mdb zero-length", 3, ledger_empty, reads + [(WRITE, {65})]),
        ("ledger/ removed, keys/ kept", 3, ledger_removed, reads + [(WRITE, {65})]),
        ("an event deleted", 4, event_deleted, [(["projections", "rebuild"], {65}), (["audit", "verify"], {65})]),
        ("two events swapped", 4, events_swapped, [(["projections", "rebuild"], {65}), (["audit", "verify"], {65})]),
        ("a duplicate event inserted, re-hashed", 6, duplicate_rehashed,
         [(["projections", "rebuild", "--check"], {65}), (["accounts"], {0, 65}), (["saved", "--user", "ann"], {0, 65}), (["audit", "verify"], {65})]),
        ("ledger/data.mdb cut to half", 7, half("ledger"), reads + [(WRITE, {65})]),
        ("ledger/data.mdb cut to 2 pages", 7, two_pages("ledger"), reads + [(WRITE, {65})]),
        ("ledger/data.mdb last page cut", 7, last_page_cut("ledger"), reads + [(WRITE, {65})]),
        ("keys/data.mdb cut to half", 7, half("keys"), reads + [(WRITE, {65})]),
        ("keys/data.mdb cut to 2 pages", 7, two_pages("keys"), reads + [(WRITE, {65})]),
        ("ledger/data.mdb 64 KiB zeroed", 7, zeroed, [(r, {0, 65}) for r in READS] + [(WRITE, {0, 65})]),
        # Random bytes in a B-tree page LMDB does not check: a lookup may find nothing (66, a wrong
        # answer), and a change may make a key for an account it failed to find before LMDB trips
        # over the page (see the handbook, "Exit codes", "Damaged files").
        ("ledger/data.mdb 4 KiB random", 7, random_bytes, [(r, {0, 65, 66}) for r in READS] + [(WRITE, {0, 65})]),
        ("cache/data.mdb truncated", 8, cache_truncated, [(["cache", "stats"], {65}), (["cache", "clear"], {0})]),
        ("cache/data.mdb truncated, then `reel cache clear`", 8, cleared_cache, [(["cache", "stats"], {0}), (["show", "movie", "550"], {0})]),
        ("stream-index entry removed", 9, stream_index_edited, [(["audit", "verify"], {65})]),
        ("event-ids entry pointed elsewhere", 9, event_ids_edited, [(["audit", "verify"], {65})]),
        ("closed-streams record forged", 2, forged_closed, [(["audit", "verify"], {65}), (WRITE, {65}), (["saved", "--user", "bob"], {0}), (["accounts"], {0})]),
    ]


def outcome(p):
    err = p.stderr.decode(errors="replace")
    lines = [l for l in err.splitlines() if l and not l.startswith("reel: note:")]
    if p.returncode == "hang":
        return "hang", False, lines
    signal = -p.returncode if p.returncode < 0 else None
    backtrace = "Fatal error" in err or "Current stack trace" in err or "#0 " in err or "Backtrace" in err
    return signal, backtrace, lines


def main():
    if not os.path.exists(REEL):
        sys.exit("no reel binary at %s: swift build first, or pass --reel" % REEL)
    root = tempfile.mkdtemp(prefix="reel-faults-")
    rows, ok = [], True
    try:
        base = build_base(root)
        for n, (name, item, prepare, commands) in enumerate(faults()):
            if ONLY and ONLY not in name:
                continue
            for argv, expected in commands:
                data = copy(base, root, "f%d-%d" % (n, len(rows)))
                prepare(data)
                before = fingerprint(data)
                p = run(data, *argv)
                after = fingerprint(data)
                signal, backtrace, lines = outcome(p)
                changed = before != after
                may_change = argv[:2] in (["cache", "clear"], ["projections", "rebuild"]) and p.returncode == 0
                # A failed check is a report on stdout (`audit verify`, `rebuild --check`), not an error line.
                report = argv[0] == "audit" or "--check" in argv
                good = (signal is None and not backtrace and p.returncode in expected
                        and (p.returncode == 0 or len(lines) == 1 or report and not lines and p.stdout) and (not changed or may_change or argv == WRITE and (p.returncode == 0 or "random" in name)))
                ok &= good
                rows.append({"item": item, "fault": name, "command": "reel " + " ".join(argv), "exit": p.returncode,
                             "signal": signal, "backtrace": backtrace, "stderrLines": len(lines), "changed": changed,
                             "expected": sorted(expected), "ok": good, "message": lines[0][:160] if lines else ""})
        rows.extend(special(root, base))
        ok &= all(r["ok"] for r in rows)
    finally:
        subprocess.run(["umount", "-q", os.path.join(root, "tmpfs")], capture_output=True)
        subprocess.run(["umount", "-q", os.path.join(root, "ro")], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
    if AS_JSON:
        print(json.dumps({"rows": rows, "ok": ok}, indent=1))
    else:
        print("| item | fault | command | exit | signal or backtrace | stderr lines | data changed | as expected |")
        print("|---|---|---|---|---|---|---|---|")
        for r in rows:
            print("| %s | %s | `%s` | %s | %s | %d | %s | %s |" % (
                r["item"], r["fault"], r["command"], r["exit"], ("hung %d s, killed" % TIMEOUT if r["signal"] == "hang" else "signal %s" % r["signal"]) if r["signal"] else ("backtrace" if r["backtrace"] else "no"),
                r["stderrLines"], "yes" if r["changed"] else "no", "yes" if r["ok"] else "NO (expected %s)" % r["expected"]))
        print("%d passed, %d failed" % (sum(r["ok"] for r in rows), sum(not r["ok"] for r in rows)))
    sys.exit(0 if ok else 1)


def special(root, base):
    """Faults needing a device, a mount or another user."""
    rows = []

    def row(item, fault, argv, p, expected, changed=False, note=""):
        signal, backtrace, lines = outcome(p)
        good = signal is None and not backtrace and p.returncode in expected and (p.returncode == 0 or len(lines) == 1) and not changed
        rows.append({"item": item, "fault": fault, "command": "reel " + " ".join(argv) + note, "exit": p.returncode, "signal": signal,
                     "backtrace": backtrace, "stderrLines": len(lines), "changed": changed, "expected": sorted(expected), "ok": good,
                     "message": lines[0][:160] if lines else ""})

    if ONLY and ONLY not in "stdout /dev/full full disk read-only another user":
        return rows
    # 10. Output to /dev/full.
    for argv, expected in [(["account", "export", "--user", "ann", "--no-details"], {74}), (["saved", "--json", "--user", "ann"], {74}),
                           (["history", "--user", "ann"], {74}), (["accounts"], {74}), (WRITE, {74})]:
        data = copy(base, root, "full-%d" % len(rows))
        p = run(data, *argv, stdout="/dev/full")
        row(10, "stdout is /dev/full", argv, p, expected, note=" > /dev/full")
    if os.geteuid() != 0:
        print("note: skipped the full disk, read-only and other-user faults (they need root)", file=sys.stderr)
        return rows
    # 5. A full disk.
    mount = os.path.join(root, "tmpfs")
    os.makedirs(mount)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mount]).returncode == 0:
        data = os.path.join(mount, "d")
        shutil.copytree(base, data)
        subprocess.run(["dd", "if=/dev/zero", "of=" + mount + "/fill", "bs=4096"], capture_output=True)
        for argv, expected in [(["account", "delete", "--yes", "--user", "cy"], {73}), (["fav", "add", "movie", "13", "--user", "newbie"], {0, 73}),
                               (["accounts"], {0}), (["audit", "verify"], {0})]:
            before = fingerprint(data)
            p = run(data, *argv)
            row(5, "disk full (3 MB tmpfs)", argv, p, expected, changed=(before != fingerprint(data)) and p.returncode != 0)
        subprocess.run(["umount", mount])
    # 11. Read-only file system, and another user.
    ro = os.path.join(root, "ro")
    os.makedirs(ro)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", ro]).returncode == 0:
        data = os.path.join(ro, "d")
        shutil.copytree(base, data)
        subprocess.run(["mount", "-o", "remount,ro", ro])
        for argv, expected in [(["accounts"], {0}), (["audit", "verify"], {0}), (["saved", "--user", "ann"], {0}), (["projections", "rebuild", "--check"], {0}), (WRITE, {69})]:
            p = run(data, *argv)
            row(11, "read-only file system", argv, p, expected)
        subprocess.run(["umount", ro])
    data = copy(base, root, "other-user")
    for argv in (["accounts"], ["audit", "verify"]):
        p = run(data, *argv, user="nobody")
        row(11, "another user's data directory", argv, p, {69}, note=" (as nobody)")
    return rows


if __name__ == "__main__":
    main()
