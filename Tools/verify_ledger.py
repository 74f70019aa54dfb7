#!/usr/bin/env python3
"""Independent verifier for a Reel ledger (layout version 1, see Schemas/ledger-layout.md).

Usage: python3 Tools/verify_ledger.py LEDGER_DIR [--json] [--expect-head HEX]

LEDGER_DIR is the `ledger/` LMDB environment (the directory holding data.mdb). Uses only the
Python standard library and the `lmdb` package; it never decrypts anything. Walks `events` in key
order inside one read transaction and checks rules 1-10 of the layout document, stopping at the
first failure.

Output: `OK <count> events, head <position> <hash-hex>` (exit 0), or
`FAIL position N: <rule>: <detail>` (exit 1). With --json, one JSON object instead, where
`events`, `headPosition` and `headHash` describe the events verified before the problem.
Usage errors and directories that are not a ledger: one line on stderr, exit 2.
"""
import argparse, hashlib, json, os, struct, sys

import lmdb

ZERO_HASH = bytes(32)
DATABASES = ("events", "streams", "stream-index", "event-ids", "meta")
CLOSING_TYPE = b"account-deleted"  # the event type that closes a stream (rule 10)


def die(message):
    print(message, file=sys.stderr)
    sys.exit(2)


class Problem(Exception):
    def __init__(self, position, rule, detail):
        super().__init__(detail)
        self.position, self.rule, self.detail = position, rule, detail


def u64(b):
    return struct.unpack(">Q", b)[0]


def parse(env):
    """Split an envelope into its fields (rule 2); raise ValueError if it does not parse."""
    if len(env) < 128 or env[0] != 0x01:
        raise ValueError("too short or format byte is not 0x01")
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
    if len(env) != 126 + s + t + c:
        raise ValueError("length %d, expected 126+S+T+C = %d" % (len(env), 126 + s + t + c))
    if b"\x00" in stream:
        raise ValueError("stream id contains NUL")
    stream.decode("utf-8"), event_type.decode("utf-8")  # raise UnicodeDecodeError (a ValueError)
    return position, prev, event_id, version, recorded_at, stream, event_type, env[-32:]


def verify(txn, dbs, result):
    """Walk the ledger; update result as events verify; raise Problem on the first failure."""
    expected, prev_hash, prev_time = 1, ZERO_HASH, None
    versions = {}  # stream id -> last version seen
    last_event = {}  # stream id -> (position, type) of its last event
    for key, env in txn.cursor(db=dbs["events"]):
        if len(key) != 8 or u64(key) != expected:
            found = u64(key) if len(key) == 8 else "a %d-byte key" % len(key)
            raise Problem(expected, "gap", "expected key %d, found %s" % (expected, found))
        try:
            position, prev, event_id, version, recorded_at, stream, event_type, digest = parse(env)
        except ValueError as e:
            raise Problem(expected, "undecodable", str(e))
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
        pos_bytes = struct.pack(">Q", expected)
        if txn.get(stream + b"\x00" + struct.pack(">Q", version), db=dbs["stream-index"]) != pos_bytes:
            raise Problem(expected, "index-mismatch", "stream-index entry for %r v%d missing or wrong" % (stream.decode(), version))
        if txn.get(event_id, db=dbs["event-ids"]) != pos_bytes:
            raise Problem(expected, "index-mismatch", "event-ids entry for %s missing or wrong" % event_id.hex())
        versions[stream] = version
        last_event[stream] = (expected, event_type)
        prev_hash, prev_time = digest, recorded_at
        result.update(events=expected, headPosition=expected, headHash=digest.hex())
        expected += 1

    last = expected - 1
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

    # Rule 10: a stream has a closed-streams entry exactly when its last event closes it.
    closed = set()
    for stream, value in (txn.cursor(db=dbs["closed-streams"]) if "closed-streams" in dbs else []):
        closed.add(stream)
        position, event_type = last_event.get(stream, (last, None))
        name = stream.decode("utf-8", "replace")
        if len(value) != 9 or value[0] > 1:
            raise Problem(position, "closed-streams", "closed-streams entry for %r is malformed" % name)
        if event_type != CLOSING_TYPE:
            raise Problem(position, "closed-streams", "closed-streams closes %r, but its last event is not %s"
                          % (name, CLOSING_TYPE.decode()))
    for stream, (position, event_type) in sorted(last_event.items(), key=lambda item: item[1][0]):
        if event_type == CLOSING_TYPE and stream not in closed:
            raise Problem(position, "closed-streams", "stream %r ends with %s but has no closed-streams entry"
                          % (stream.decode("utf-8", "replace"), CLOSING_TYPE.decode()))


def main():
    parser = argparse.ArgumentParser(description="Verify a Reel ledger without Reel.")
    parser.add_argument("ledger_dir")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--expect-head", metavar="HEX", help="fail unless the head hash is HEX")
    args = parser.parse_args()  # exits 2 on usage errors
    expect = args.expect_head.lower() if args.expect_head else None
    if expect is not None and (len(expect) != 64 or any(ch not in "0123456789abcdef" for ch in expect)):
        parser.error("--expect-head needs 64 hex digits")
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
    fmt = txn.get(b"format", db=dbs["meta"])
    if fmt != b"reel-ledger/1":
        die("not a ledger: meta/format is %r, expected 'reel-ledger/1'" % fmt)

    result = {"ok": True, "events": 0, "headPosition": 0, "headHash": None, "problem": None}
    try:
        verify(txn, dbs, result)
        if expect is not None and result["headHash"] != expect:
            raise Problem(result["headPosition"], "head-mismatch",
                          "head hash %s, expected %s" % (result["headHash"], expect))
    except Problem as p:
        result["ok"] = False
        result["problem"] = {"position": p.position, "rule": p.rule, "detail": p.detail}
    except lmdb.Error as e:
        die("cannot read %s: %s" % (args.ledger_dir, e))
    finally:
        txn.abort()
        env.close()

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
