#!/usr/bin/env python3
"""Independent verifier for a Reel ledger (layout version 1, see Schemas/ledger-layout.md).

Usage: python3 Tools/verify_ledger.py LEDGER_DIR|postgres://... [--json] [--expect-head HEX]

LEDGER_DIR is the `ledger/` LMDB environment (the directory holding data.mdb). Uses only the
Python standard library and the `lmdb` package; it never decrypts anything. Walks `events` in key
order inside one read transaction and checks rules 1-10 of the layout document, stopping at the
first failure.

A postgres:// (or postgresql://) URL names a PostgreSQL store instead (Schemas/postgres-layout.md):
its tables are read with `psql` (PostgreSQL's client; a URL without a password takes PGPASSWORD)
in one REPEATABLE READ READ ONLY transaction, and the same rules are checked against them. The
URL's password is never printed.

Output: `OK <count> events, head <position> <hash-hex>` (exit 0), or
`FAIL position N: <rule>: <detail>` (exit 1). With --json, one JSON object instead, where
`events`, `headPosition`, `headHash` and `headRecordedAt` describe the events verified before
the problem.
Usage errors and directories that are not a ledger: one line on stderr, exit 2.
"""
import argparse, datetime, hashlib, json, os, re, struct, subprocess, sys


def iso(micros):
    """A time in microseconds since 1970 as Reel writes it: RFC 3339, UTC, six fraction digits."""
    seconds, fraction = divmod(micros, 1_000_000)
    moment = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + ".%06dZ" % fraction

ZERO_HASH = bytes(32)
DATABASES = ("events", "streams", "stream-index", "event-ids", "meta")
CLOSING_TYPE = b"account-deleted"  # the event type that closes a stream (rule 10)
MOVED_OUT_TYPE = b"account-moved-out"  # may close its stream: once the move finished (rule 10)


def die(message):
    print(message, file=sys.stderr)
    sys.exit(2)


class Problem(Exception):
    def __init__(self, position, rule, detail):
        super().__init__(detail)
        self.position, self.rule, self.detail = position, rule, detail


class TreeCheck:
    """The Merkle tree of Schemas/ledger-layout.md ("The Merkle tree"), grown one envelope at a
    time and compared with the stored one: `stored(index)` gives the stored hash at a stored
    index (None when there is none)."""

    def __init__(self, stored):
        self.stored, self.size, self.roots, self.next = stored, 0, [], 0
        # The first difference, raised only once every other rule holds (as `reel audit verify`
        # checks the tree after the chain): a rewritten chain is named by the chain's rule.
        self.problem = None

    def add(self, position, envelope):
        digest = hashlib.sha256(b"\x00" + envelope).digest()
        made, rest = [digest], self.size
        while rest & 1:
            digest = hashlib.sha256(b"\x01" + self.roots.pop() + digest).digest()
            made.append(digest)
            rest >>= 1
        self.roots.append(digest)
        self.size += 1
        for digest in made:
            if self.problem is None and self.stored(self.next) != digest:
                self.problem = Problem(position, "tree-mismatch", "stored tree hash %d is not the one the envelopes make" % self.next)
            self.next += 1

    def finish(self, last, edge, stored_count):
        """Checks the tree's edge (`meta/tree`, `reel_head.tree`) and that nothing is stored past it."""
        if self.problem is not None:
            return
        if edge != struct.pack(">Q", self.size) + b"".join(self.roots):
            self.problem = Problem(last, "tree-mismatch", "the tree's edge is not the one the envelopes make")
        elif stored_count != self.next:
            self.problem = Problem(last, "tree-mismatch", "%d tree hashes are stored, the envelopes make %d" % (stored_count, self.next))


def u64(b):
    return struct.unpack(">Q", b)[0]


def parse(env):
    """Split an envelope into its fields (rule 2); raise ValueError if it does not parse.

    Format 0x02 (an event a move between shards laid on this chain) has 8 more bytes before the
    hash: the time the event was first recorded, covered by the hash like every other field."""
    if len(env) < 128 or env[0] not in (0x01, 0x02):
        raise ValueError("too short or format byte is not 0x01 or 0x02")
    trailer = 8 if env[0] == 0x02 else 0
    position, prev, event_id, version, recorded_at, _schema = struct.unpack_from(">Q32s16sQqH", env, 1)
    s = env[75]
    if s == 0 or len(env) < 76 + s + 1:
        raise ValueError("bad stream id length")
    stream = env[76:76 + s]
    t = env[76 + s]
    if t == 0 or len(env) < 77 + s + t + 17:
        raise ValueError("bad event type length")
    event_type = env[77 + s:77 + s + t]
    if env[77 + s + t] != 0x01:
        raise ValueError("seal algorithm is not 0x01")
    c = struct.unpack_from(">I", env, 90 + s + t)[0]
    if c < 16:
        raise ValueError("ciphertext shorter than the GCM tag")
    if len(env) != 126 + s + t + c + trailer:
        raise ValueError("length %d, expected 126+S+T+C%s = %d" % (len(env), "+8" if trailer else "", 126 + s + t + c + trailer))
    if b"\x00" in stream:
        raise ValueError("stream id contains NUL")
    stream.decode("utf-8"), event_type.decode("utf-8")  # raise UnicodeDecodeError (a ValueError)
    return position, prev, event_id, version, recorded_at, stream, event_type, env[-32:]


def check_envelope(expected, env, prev_hash, prev_time, versions):
    """Rules 2-7 for the envelope at position `expected`; its fields, or Problem."""
    try:
        fields = parse(env)
    except ValueError as e:
        raise Problem(expected, "undecodable", str(e))
    position, prev, _event_id, version, recorded_at, stream, _event_type, digest = fields
    if position != expected:
        raise Problem(expected, "position-mismatch", "envelope says position %d" % position)
    if hashlib.sha256(env[:-32]).digest() != digest:
        raise Problem(expected, "hash-mismatch", "stored hash is not SHA-256 of the envelope")
    if prev != prev_hash:
        raise Problem(expected, "broken-link", "previous hash %s, expected %s" % (prev.hex(), prev_hash.hex()))
    want = versions.get(stream, 0) + 1
    if version != want:
        raise Problem(expected, "stream-version", "stream %r version %d, expected %d" % (stream.decode(), version, want))
    if prev_time is not None and recorded_at < prev_time:
        raise Problem(expected, "time-order", "recorded-at %d before %d" % (recorded_at, prev_time))
    return fields


def verify(txn, dbs, result):
    """Walk the ledger; update result as events verify; raise Problem on the first failure."""
    expected, prev_hash, prev_time = 1, ZERO_HASH, None
    versions = {}  # stream id -> last version seen
    last_event = {}  # stream id -> (position, type) of its last event
    # A ledger no Reel with the tree has written has none: nothing to check.
    # (nor one opened by it but not written since: an empty tree and no edge). A tree behind the
    # head (written since by a Reel without it) is checked as far as it goes.
    edge = txn.get(b"tree", db=dbs["meta"]) if "tree" in dbs else None
    tree_size = struct.unpack(">Q", edge[:8])[0] if edge and len(edge) >= 8 else 0
    tree = TreeCheck(lambda index: txn.get(struct.pack(">Q", index), db=dbs["tree"])) if tree_size > 0 else None
    for key, env in txn.cursor(db=dbs["events"]):
        if len(key) != 8 or u64(key) != expected:
            found = u64(key) if len(key) == 8 else "a %d-byte key" % len(key)
            raise Problem(expected, "gap", "expected key %d, found %s" % (expected, found))
        _, _, event_id, version, recorded_at, stream, event_type, digest = check_envelope(expected, env, prev_hash, prev_time, versions)
        pos_bytes = struct.pack(">Q", expected)
        if txn.get(stream + b"\x00" + struct.pack(">Q", version), db=dbs["stream-index"]) != pos_bytes:
            raise Problem(expected, "index-mismatch", "stream-index entry for %r v%d missing or wrong" % (stream.decode(), version))
        if txn.get(event_id, db=dbs["event-ids"]) != pos_bytes:
            raise Problem(expected, "index-mismatch", "event-ids entry for %s missing or wrong" % event_id.hex())
        versions[stream] = version
        last_event[stream] = (expected, event_type)
        if tree is not None and expected <= tree_size:
            tree.add(expected, env)
        prev_hash, prev_time = digest, recorded_at
        result.update(events=expected, headPosition=expected, headHash=digest.hex(), headRecordedAt=iso(recorded_at))
        expected += 1

    last = expected - 1
    if tree is not None:
        if tree_size > last:
            tree.problem = Problem(last, "tree-mismatch", "meta/tree covers %d events, the log ends at %d" % (tree_size, last))
        tree.finish(min(tree_size, last), edge, txn.stat(dbs["tree"])["entries"])
    head = txn.get(b"head", db=dbs["meta"])
    if last == 0 and head is not None:
        raise Problem(0, "head-mismatch", "meta/head present but events is empty")
    if last > 0:
        if head is None or len(head) != 48:
            raise Problem(last, "head-mismatch", "meta/head missing or not 48 bytes")
        head_pos, head_time, head_hash = struct.unpack(">Qq32s", head)
        if (head_pos, head_time, head_hash) != (last, prev_time, prev_hash):
            raise Problem(last, "head-mismatch", "meta/head names position %d hash %s, log ends at %d hash %s"
                          % (head_pos, head_hash.hex(), last, prev_hash.hex()))

    for name, count in (("stream-index", last), ("event-ids", last), ("streams", len(versions))):
        entries = txn.stat(dbs[name])["entries"]
        if entries != count:
            raise Problem(last, "index-mismatch", "%s has %d entries, expected %d" % (name, entries, count))
    for stream, value in txn.cursor(db=dbs["streams"]):
        if len(value) != 8 or versions.get(stream) != u64(value):
            raise Problem(last, "index-mismatch", "streams entry for %r does not match last version %s"
                          % (stream.decode("utf-8", "replace"), versions.get(stream)))

    # Rule 10: a stream has a closed-streams entry when its last event deletes it, may have one when
    # its last event moved it to another shard, and has none otherwise.
    closed = set()
    for stream, value in (txn.cursor(db=dbs["closed-streams"]) if "closed-streams" in dbs else []):
        closed.add(stream)
        position, event_type = last_event.get(stream, (last, None))
        name = stream.decode("utf-8", "replace")
        if len(value) != 9 or value[0] > 1:
            raise Problem(position, "closed-streams", "closed-streams entry for %r is malformed" % name)
        if event_type not in (CLOSING_TYPE, MOVED_OUT_TYPE):
            raise Problem(position, "closed-streams", "closed-streams closes %r, but its last event is not %s or %s"
                          % (name, CLOSING_TYPE.decode(), MOVED_OUT_TYPE.decode()))
    for stream, (position, event_type) in sorted(last_event.items(), key=lambda item: item[1][0]):
        if event_type == CLOSING_TYPE and stream not in closed:
            raise Problem(position, "closed-streams", "stream %r ends with %s but has no closed-streams entry"
                          % (stream.decode("utf-8", "replace"), CLOSING_TYPE.decode()))
    return tree


PSQL_SCRIPT = r"""
\set ON_ERROR_STOP 1
BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
\echo =head
SELECT position || ' ' || recorded_at || ' ' || encode(hash, 'hex') FROM reel_head;
\echo =streams
SELECT encode(convert_to(stream, 'UTF8'), 'hex') || ' ' || version || ' ' || coalesce(closed_at::text, '-') FROM reel_streams;
SELECT to_regclass('reel_tree') IS NOT NULL AS has_tree \gset
\if :has_tree
\echo =edge
SELECT encode(tree, 'hex') FROM reel_head;
\echo =tree
COPY (SELECT stored_index, encode(hash, 'hex') FROM reel_tree ORDER BY stored_index) TO STDOUT;
\endif
\echo =events
COPY (SELECT position, encode(convert_to(stream, 'UTF8'), 'hex'), stream_version, replace(event_id::text, '-', ''),
      encode(convert_to(type, 'UTF8'), 'hex'), recorded_at, encode(envelope, 'hex')
      FROM reel_events ORDER BY position) TO STDOUT;
\echo =end
COMMIT;
"""


def password_of(url):
    """The password in `url` (between "scheme://user:" and the last '@'), or None."""
    match = re.match(r"^postgres(?:ql)?://[^:@/?#]*:(.*)@[^@]*$", url)
    return match.group(1) if match and match.group(1) else None


def redacted(url):
    """The URL without its password, for messages."""
    password = password_of(url)
    return url.replace(":" + password + "@", ":***@", 1) if password else url


def verify_postgres(url, result):
    """Walk a PostgreSQL ledger (Schemas/postgres-layout.md) as `verify` walks an LMDB one."""
    try:
        psql = subprocess.Popen(["psql", "-X", "-q", "-At", "-d", url, "-f", "-"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        die("cannot run psql (install PostgreSQL's client): %s" % e)
    psql.stdin.write(PSQL_SCRIPT.encode())
    psql.stdin.close()
    section, head, stored_streams = None, None, {}
    edge, stored_tree, tree = None, {}, None
    expected, prev_hash, prev_time = 1, ZERO_HASH, None
    versions, last_event, ids = {}, {}, set()
    problem = None
    for raw in psql.stdout:
        line = raw.decode("utf-8").rstrip("\n")
        if line.startswith("="):
            section = line[1:]
            continue
        if problem is not None:
            continue  # drain psql's output; the first problem stands
        try:
            if section == "head":
                position, recorded_at, digest = line.split(" ")
                head = (int(position), int(recorded_at), bytes.fromhex(digest))
            elif section == "streams":
                stream, version, closed = line.split(" ")
                stored_streams[bytes.fromhex(stream)] = (int(version), None if closed == "-" else int(closed))
            elif section == "edge":
                edge = bytes.fromhex(line)
            elif section == "tree":
                index, digest = line.split("\t")
                stored_tree[int(index)] = bytes.fromhex(digest)
            elif section == "events":
                # A store migrated to the tree but not written since has the tree of no leaves.
                if tree is None and edge is not None and edge[:8] != struct.pack(">Q", 0):
                    tree = TreeCheck(stored_tree.get)
                row = line.split("\t")
                key, stream, version, event_id, event_type, recorded_at = (
                    int(row[0]), bytes.fromhex(row[1]), int(row[2]), bytes.fromhex(row[3]), bytes.fromhex(row[4]), int(row[5]))
                env = bytes.fromhex(row[6][2:] if row[6].startswith("\\x") else row[6])
                if key != expected:
                    raise Problem(expected, "gap", "expected position %d, found %d" % (expected, key))
                _, _, env_id, env_version, env_time, env_stream, env_type, digest = check_envelope(
                    expected, env, prev_hash, prev_time, versions)
                if (stream, version, event_id, event_type, recorded_at) != (env_stream, env_version, env_id, env_type, env_time):
                    raise Problem(expected, "index-mismatch", "the row's columns disagree with its envelope")
                if env_id in ids:
                    raise Problem(expected, "index-mismatch", "event id %s is stored twice" % env_id.hex())
                ids.add(env_id)
                versions[env_stream] = env_version
                last_event[env_stream] = (expected, env_type, env_time)
                if tree is not None and expected <= struct.unpack(">Q", edge[:8])[0]:
                    tree.add(expected, env)
                prev_hash, prev_time = digest, env_time
                result.update(events=expected, headPosition=expected, headHash=digest.hex(), headRecordedAt=iso(env_time))
                expected += 1
        except Problem as p:
            problem = p
        except (ValueError, IndexError) as e:
            problem = Problem(expected, "undecodable", "a row psql printed does not parse: %s" % e)
    psql.stdout.close()
    errors = psql.stderr.read().decode("utf-8", "replace").strip()
    if psql.wait() != 0 or section != "end":
        password = password_of(url)
        if password:
            errors = errors.replace(password, "***")
        lines = [line for line in errors.splitlines() if line.strip()]
        first = next((line for line in lines if "ERROR" in line or "FATAL" in line or "error" in line), lines[0] if lines else "psql failed")
        die("cannot read the store %s: %s" % (redacted(url), first))
    if problem is not None:
        raise problem

    last = expected - 1
    if tree is not None:
        edge_size = struct.unpack(">Q", edge[:8])[0]
        if edge_size > last:
            tree.problem = Problem(last, "tree-mismatch", "reel_head.tree covers %d events, the log ends at %d" % (edge_size, last))
        tree.finish(min(edge_size, last), edge, len(stored_tree))
    if head is None:
        raise Problem(last, "head-mismatch", "reel_head has no row")
    if last == 0 and head[0] != 0:
        raise Problem(0, "head-mismatch", "reel_head names position %d but the log is empty" % head[0])
    if last > 0 and head != (last, prev_time, prev_hash):
        raise Problem(last, "head-mismatch", "reel_head names position %d hash %s, log ends at %d hash %s"
                      % (head[0], head[2].hex(), last, prev_hash.hex()))
    if len(stored_streams) != len(versions):
        raise Problem(last, "index-mismatch", "reel_streams has %d rows, expected %d" % (len(stored_streams), len(versions)))
    for stream, (version, _closed) in stored_streams.items():
        if versions.get(stream) != version:
            raise Problem(last, "index-mismatch", "reel_streams row for %r does not match last version %s"
                          % (stream.decode("utf-8", "replace"), versions.get(stream)))
    # Rule 10: closed_at is set when the last event deletes the stream, may be set when it moved it
    # to another shard (account-moved-out, once the move finished), and is set for no other.
    for stream, (position, event_type, recorded_at) in sorted(last_event.items(), key=lambda item: item[1][0]):
        closed = stored_streams[stream][1]
        name = stream.decode("utf-8", "replace")
        if closed is not None and event_type not in (CLOSING_TYPE, MOVED_OUT_TYPE):
            raise Problem(position, "closed-streams", "reel_streams closes %r, but its last event is not %s or %s"
                          % (name, CLOSING_TYPE.decode(), MOVED_OUT_TYPE.decode()))
        if event_type == CLOSING_TYPE and closed is None:
            raise Problem(position, "closed-streams", "stream %r ends with %s but reel_streams does not close it"
                          % (name, CLOSING_TYPE.decode()))
        if closed is not None and closed != recorded_at:
            raise Problem(position, "closed-streams", "reel_streams closes %r at %d, not when its %s event was recorded (%d)"
                          % (name, closed, event_type.decode(), recorded_at))
    return tree


def main():
    parser = argparse.ArgumentParser(description="Verify a Reel ledger without Reel.")
    parser.add_argument("ledger_dir")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--expect-head", metavar="HEX", help="fail unless the head hash is HEX")
    args = parser.parse_args()  # exits 2 on usage errors
    expect = args.expect_head.lower() if args.expect_head else None
    if expect is not None and (len(expect) != 64 or any(ch not in "0123456789abcdef" for ch in expect)):
        parser.error("--expect-head needs 64 hex digits")
    if re.match(r"^postgres(ql)?://", args.ledger_dir):
        finish(args, lambda result: verify_postgres(args.ledger_dir, result), expect, lambda: None)
    import lmdb
    if not os.path.isfile(os.path.join(args.ledger_dir, "data.mdb")):
        die("not a ledger: %s has no data.mdb" % args.ledger_dir)
    try:
        # A small map size is fine: LMDB enlarges it to the file's used size when opening.
        env = lmdb.open(args.ledger_dir, readonly=True, lock=True, max_dbs=32, map_size=1 << 20,
                        subdir=True, create=False)
        txn = env.begin(buffers=False)
    except lmdb.Error as e:
        die("cannot open %s: %s" % (args.ledger_dir, e))
    dbs = {}
    for name in DATABASES:
        try:
            dbs[name] = env.open_db(name.encode(), txn=txn, create=False)
        except lmdb.NotFoundError:
            die("not a ledger: %s has no database %r" % (args.ledger_dir, name))
    try:
        dbs["closed-streams"] = env.open_db(b"closed-streams", txn=txn, create=False)
    except lmdb.NotFoundError:
        pass  # a ledger written before streams could be closed: no entries
    try:
        dbs["tree"] = env.open_db(b"tree", txn=txn, create=False)
    except lmdb.NotFoundError:
        pass  # a ledger written before the Merkle tree
    fmt = txn.get(b"format", db=dbs["meta"])
    if fmt != b"reel-ledger/1":
        die("not a ledger: meta/format is %r, expected 'reel-ledger/1'" % fmt)

    def close():
        txn.abort()
        env.close()

    def walk(result):
        try:
            return verify(txn, dbs, result)
        except lmdb.Error as e:
            die("cannot read %s: %s" % (args.ledger_dir, e))

    finish(args, walk, expect, close)


def finish(args, walk, expect, close):
    """Runs the walk, prints the result and exits."""
    result = {"ok": True, "events": 0, "headPosition": 0, "headHash": None, "headRecordedAt": None, "problem": None}
    try:
        tree = walk(result)
        if expect is not None and result["headHash"] != expect:
            raise Problem(result["headPosition"], "head-mismatch",
                          "head hash %s, expected %s" % (result["headHash"], expect))
        if tree is not None and tree.problem is not None:
            raise tree.problem
    except Problem as p:
        result["ok"] = False
        result["problem"] = {"position": p.position, "rule": p.rule, "detail": p.detail}
    finally:
        close()

    if args.json:
        print(json.dumps(result))
    elif result["ok"]:
        print("OK %d events, head %d %s" % (result["events"], result["headPosition"], result["headHash"] or "-"))
    else:
        p = result["problem"]
        print("FAIL position %d: %s: %s" % (p["position"], p["rule"], p["detail"]))
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
