#!/usr/bin/env python3
"""Damage a Reel ledger the way an attacker would, for tests (layout: Schemas/ledger-layout.md).

Usage: python3 Tools/tamper_ledger.py LEDGER_DIR ACTION ARGS...

  flip-byte POSITION OFFSET     XOR 0x01 into byte OFFSET of the envelope (negative: from the end)
  delete POSITION               delete that `events` entry only
  swap POS_A POS_B              exchange two envelopes (keys stay)
  insert POSITION               shift the keys after POSITION up by one and put a copy of the
                                envelope at POSITION under POSITION+1
  rehash-from POSITION [--update-head]
                                recompute previous-hash and hash of every envelope from POSITION
                                to the end; with --update-head also rewrite meta/head
  truncate N                    delete the last N events (meta/head and indexes stay)
  set-field POSITION FIELD VALUE
                                overwrite FIELD (position | stream-version | recorded-at) without
                                rehashing
  rebuild-tree                  recompute the Merkle tree (`tree`, meta/tree) from the envelopes
                                as they are now: what a rewriter with the disk does last

Only `events` (and meta/head with --update-head, the tree with rebuild-tree) is touched. Prints one line; exit 2 on bad
arguments.
"""
import hashlib, os, struct, sys

import lmdb

FIELDS = {"position": (1, ">Q"), "stream-version": (57, ">Q"), "recorded-at": (65, ">q")}
USAGE = "\n\n".join(__doc__.split("\n\n")[1:3])


class BadArguments(Exception):
    pass


def key(position):
    return struct.pack(">Q", position)


def integer(text, what):
    try:
        return int(text)
    except ValueError:
        raise BadArguments("%s must be an integer, got %r" % (what, text))


def envelope(txn, events, position):
    value = txn.get(key(position), db=events)
    if value is None:
        raise BadArguments("no event at position %d" % position)
    return value


def all_keys(txn, events):
    return [k for k, _ in txn.cursor(db=events)]


def flip_byte(txn, events, position, offset):
    env = bytearray(envelope(txn, events, position))
    if not -len(env) <= offset < len(env):
        raise BadArguments("offset %d outside the %d-byte envelope" % (offset, len(env)))
    env[offset] ^= 0x01
    txn.put(key(position), bytes(env), db=events)
    return "flipped byte %d of the envelope at position %d" % (offset % len(env), position)


def delete(txn, events, position):
    envelope(txn, events, position)
    txn.delete(key(position), db=events)
    return "deleted position %d" % position


def swap(txn, events, a, b):
    env_a, env_b = envelope(txn, events, a), envelope(txn, events, b)
    txn.put(key(a), env_b, db=events)
    txn.put(key(b), env_a, db=events)
    return "swapped the envelopes at positions %d and %d" % (a, b)


def insert(txn, events, position):
    copy = envelope(txn, events, position)
    later = [k for k in all_keys(txn, events) if struct.unpack(">Q", k)[0] > position]
    for k in reversed(later):  # highest first, so no key is overwritten before it moved
        value = txn.get(k, db=events)
        txn.delete(k, db=events)
        txn.put(key(struct.unpack(">Q", k)[0] + 1), value, db=events)
    txn.put(key(position + 1), copy, db=events)
    return "inserted a copy of position %d at %d, shifted %d events up" % (position, position + 1, len(later))


def rehash_from(txn, events, meta, position, update_head):
    envelope(txn, events, position)
    keys = [k for k in all_keys(txn, events) if k >= key(position)]
    cursor = txn.cursor(db=events)
    cursor.set_key(key(position))
    prev = cursor.value()[-32:] if cursor.prev() else bytes(32)  # previous envelope in key order
    for k in keys:
        env = bytearray(txn.get(k, db=events))
        env[9:41] = prev
        env[-32:] = hashlib.sha256(bytes(env[:-32])).digest()
        txn.put(k, bytes(env), db=events)
        prev = bytes(env[-32:])
    count, last_key, last_env = len(keys), keys[-1], env
    message = "rehashed %d envelopes from position %d" % (count, position)
    if update_head:
        recorded_at = struct.unpack_from(">q", last_env, 65)[0]
        txn.put(b"head", last_key + struct.pack(">q", recorded_at) + prev, db=meta)
        message += ", meta/head now %d %s" % (struct.unpack(">Q", last_key)[0], prev.hex())
    return message


def truncate(txn, events, n):
    keys = all_keys(txn, events)
    if not 0 < n <= len(keys):
        raise BadArguments("cannot truncate %d of %d events" % (n, len(keys)))
    for k in keys[-n:]:
        txn.delete(k, db=events)
    return "deleted the last %d events (positions %d..%d)" % (
        n, struct.unpack(">Q", keys[-n])[0], struct.unpack(">Q", keys[-1])[0])


def set_field(txn, events, position, field, value):
    if field not in FIELDS:
        raise BadArguments("FIELD must be one of %s" % ", ".join(FIELDS))
    offset, fmt = FIELDS[field]
    env = bytearray(envelope(txn, events, position))
    try:
        struct.pack_into(fmt, env, offset, value)
    except struct.error as e:
        raise BadArguments("value %d does not fit %s: %s" % (value, field, e))
    txn.put(key(position), bytes(env), db=events)
    return "set %s of the envelope at position %d to %d" % (field, position, value)


def rebuild_tree(txn, events, tree, meta):
    """The tree of Schemas/ledger-layout.md ("The Merkle tree") over the envelopes as they are."""
    txn.drop(tree, delete=False)
    size, roots, index = 0, [], 0
    for _, env in txn.cursor(db=events):
        digest = hashlib.sha256(b"\x00" + env).digest()
        made, rest = [digest], size
        while rest & 1:
            digest = hashlib.sha256(b"\x01" + roots.pop() + digest).digest()
            made.append(digest)
            rest >>= 1
        roots.append(digest)
        size += 1
        for digest in made:
            txn.put(struct.pack(">Q", index), digest, db=tree)
            index += 1
    txn.put(b"tree", struct.pack(">Q", size) + b"".join(roots), db=meta)
    return "rebuilt the tree over %d envelopes (%d stored hashes)" % (size, index)


def run(txn, events, meta, action, args, tree=None):
    if action == "rebuild-tree" and not args:
        return rebuild_tree(txn, events, tree, meta)
    arity = {"flip-byte": 2, "delete": 1, "swap": 2, "insert": 1, "rehash-from": 1, "truncate": 1, "set-field": 3}
    update_head = action == "rehash-from" and "--update-head" in args
    args = [a for a in args if not (update_head and a == "--update-head")]
    if action not in arity:
        raise BadArguments("unknown action %r" % action)
    if len(args) != arity[action]:
        raise BadArguments("%s takes %d arguments" % (action, arity[action]))
    position = integer(args[0], "POSITION" if action != "truncate" else "N")
    if action == "flip-byte":
        return flip_byte(txn, events, position, integer(args[1], "OFFSET"))
    if action == "delete":
        return delete(txn, events, position)
    if action == "swap":
        return swap(txn, events, position, integer(args[1], "POS_B"))
    if action == "insert":
        return insert(txn, events, position)
    if action == "rehash-from":
        return rehash_from(txn, events, meta, position, update_head)
    if action == "truncate":
        return truncate(txn, events, position)
    return set_field(txn, events, position, args[1], integer(args[2], "VALUE"))


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 2
    directory, action, args = argv[1], argv[2], argv[3:]
    data = os.path.join(directory, "data.mdb")
    if not os.path.isfile(data):
        print("not a ledger: %s has no data.mdb" % directory, file=sys.stderr)
        return 2
    # Room for the file to grow a little (insert adds an event); LMDB never shrinks a map.
    env = lmdb.open(directory, max_dbs=32, map_size=2 * os.path.getsize(data) + (64 << 20), create=False)
    try:
        with env.begin(write=True) as txn:
            events = env.open_db(b"events", txn=txn, create=False)
            meta = env.open_db(b"meta", txn=txn, create=False)
            tree = env.open_db(b"tree", txn=txn, create=False) if action == "rebuild-tree" else None
            message = run(txn, events, meta, action, args, tree)
    except BadArguments as e:
        print("tamper_ledger: %s" % e, file=sys.stderr)
        return 2
    except lmdb.NotFoundError as e:
        print("not a ledger: %s: %s" % (directory, e), file=sys.stderr)
        return 2
    finally:
        env.close()
    print(message)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
