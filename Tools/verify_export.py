#!/usr/bin/env python3
"""Independent verifier for a Reel account export (format reel-export/1, see Schemas/export.md).

Usage: python3 Tools/verify_export.py FILE [--json] [--key KEY]

FILE is what `reel account export` wrote. Uses only the Python standard library (json, hashlib,
base64, sys, argparse); it never decrypts anything and needs neither Reel nor the ledger. Runs
steps 1-7 and 9 of the procedure in Schemas/export.md, in order, and stops at the first failure. Step 9
checks the `transparency` member when the file carries one: the checkpoint's Ed25519 signature
(C2SP signed-note; Ed25519 verified here from RFC 8032's definition) under the key the file
names, and each history entry's RFC 6962 inclusion proof (RFC 9162's check) from its envelope's
leaf hash to the checkpoint's tree. With --key (the operator's published key, `reel audit key`),
the file must carry proofs signed by that key.

Output: `OK FILE: ...` (one summary line on stdout, exit 0), or
`verify_export.py: FILE: <where>: <problem> [step N]` on stderr (exit 1), where <where> names the
history index and position (`history[3] (position 7)`) or the member (`saved[0]`, `chain`).
With --json, one JSON object on stdout as well (`ok`, the verified facts, `problem`).
Usage errors, unreadable files and files that are not JSON: one line on stderr, exit 2.
"""
import argparse, base64, hashlib, json, sys

PROG = "verify_export.py"
FORMAT = "reel-export/1"
LAYOUT = "reel-ledger/1"
ZERO_HASH = "0" * 64
DEFAULT_LANGUAGE = "en-US"
# Event types the replay interprets, at the payload version it understands (schema version 1).
KNOWN_TYPES = {"account-opened", "favorite-added", "favorite-imported", "favorite-removed", "profile-name-changed",
               "profile-photo-changed", "profile-photo-removed", "language-switched", "account-deleted"}
PHOTO_FIELDS = ("sha256", "contentType", "bytes", "width", "height")


class Problem(Exception):
    def __init__(self, step, where, detail, index=None, position=None):
        super().__init__(detail)
        self.step, self.where, self.detail, self.index, self.position = step, where, detail, index, position


class Unusable(Exception):
    """The file cannot be read as JSON at all (exit 2)."""


def fail(step, where, detail, index=None, position=None):
    raise Problem(step, where, detail, index, position)


# ---------------------------------------------------------------- small checks

def is_int(v):
    return type(v) is int  # bool is a subclass of int; JSON true is not a number


def is_hex64(v):
    return isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)


def member(obj, key, where, step):
    if not isinstance(obj, dict):
        fail(step, where, "is not a JSON object")
    if key not in obj:
        fail(step, where, "has no %r" % key)
    return obj[key]


def b64(text, step, where, what, index=None, position=None):
    """Standard base64 with padding, and nothing else: re-encoding must give the text back."""
    if not isinstance(text, str):
        fail(step, where, "%s is not a base64 string" % what, index, position)
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as e:
        fail(step, where, "%s is not valid base64 (%s)" % (what, e), index, position)
    if base64.b64encode(data).decode("ascii") != text:
        fail(step, where, "%s is not canonical base64 (re-encoding its bytes gives other text)" % what, index, position)
    return data


# ---------------------------------------------------------------- times (UTCTime.iso / UTCTime.parse)

def days_from_civil(y, m, d):
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m - 3 if m > 2 else m + 9) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def civil_from_days(z):
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (m <= 2), m, d


def iso(us):
    """Microseconds since 1970 as RFC 3339 UTC with exactly 6 fractional digits and Z."""
    secs, frac = divmod(us, 1_000_000)
    days, rest = divmod(secs, 86400)
    y, m, d = civil_from_days(days)
    return "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ" % (y, m, d, rest // 3600, rest % 3600 // 60, rest % 60, frac)


def parse_time(text, exact=True):
    """RFC 3339 UTC to microseconds, or None. exact: the document's form, `YYYY-MM-DDTHH:MM:SS.ffffffZ`
    and a real calendar date. Otherwise what Reel's UTCTime.parse accepts (0-6 fractional digits)."""
    if not isinstance(text, str) or not text.isascii():
        return None
    if exact and len(text) != 27:
        return None
    if len(text) < 20 or text[4] != "-" or text[7] != "-" or text[10] != "T" or text[13] != ":" \
            or text[16] != ":" or text[-1] != "Z":
        return None
    parts = (text[0:4], text[5:7], text[8:10], text[11:13], text[14:16], text[17:19])
    if not all(p.isdigit() for p in parts):
        return None
    year, month, day, hour, minute, second = map(int, parts)
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 60):
        return None
    if exact:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        if day > [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]:
            return None
    micros = 0
    if len(text) > 20:
        fraction = text[20:-1]
        if text[19] != "." or not 1 <= len(fraction) <= 6 or not fraction.isdigit():
            return None
        micros = int(fraction.ljust(6, "0"))
    return ((days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second) * 1_000_000) + micros


# ---------------------------------------------------------------- canonical JSON (what payloadSha256 hashes)

def canonical(value):
    """Keys sorted by code point, no whitespace, integers as digits, strings escaped only where JSON
    requires (\\" \\\\ \\n \\r \\t, other controls as \\u00xx lowercase); UTF-8. ValueError for
    what has no canonical form here (non-integer numbers, unpaired surrogates)."""
    try:
        return "".join(_canonical(value)).encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError("a string holds the unpaired surrogate U+%04X, which UTF-8 cannot encode" % ord(e.object[e.start]))


def _quote(s):
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch < " ":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _canonical(v):
    if v is None:
        yield "null"
    elif v is True:
        yield "true"
    elif v is False:
        yield "false"
    elif is_int(v):
        yield str(v)
    elif isinstance(v, str):
        yield _quote(v)
    elif isinstance(v, list):
        yield "["
        for i, item in enumerate(v):
            if i:
                yield ","
            yield from _canonical(item)
        yield "]"
    elif isinstance(v, dict):
        yield "{"
        for i, key in enumerate(sorted(v)):
            if i:
                yield ","
            yield _quote(key)
            yield ":"
            yield from _canonical(v[key])
        yield "}"
    else:
        raise ValueError("the number %r is not an integer, so it has no canonical form" % (v,))


# ---------------------------------------------------------------- the envelope (ledger-layout.md)

def parse_envelope(env):
    """The fields of a layout-1 envelope, of format 1 or 2 (an event a move between shards laid
    anew: 8 more bytes before the hash, when it was first recorded); ValueError naming what does
    not parse."""
    if len(env) < 76 or env[0] not in (0x01, 0x02):
        raise ValueError("too short or format byte is not 0x01 or 0x02")
    trailer = 8 if env[0] == 0x02 else 0
    s = env[75]
    if s == 0 or len(env) < 77 + s:
        raise ValueError("bad stream id length")
    t = env[76 + s]
    if t == 0 or len(env) < 94 + s + t:
        raise ValueError("bad event type length")
    if env[77 + s + t] != 0x01:
        raise ValueError("seal algorithm is %d, not 1 (AES-256-GCM)" % env[77 + s + t])
    c = int.from_bytes(env[90 + s + t:94 + s + t], "big")
    if c < 16:
        raise ValueError("ciphertext shorter than the 16-byte GCM tag")
    if len(env) != 126 + s + t + c + trailer:
        raise ValueError("length %d, expected 126+S+T+C%s = %d" % (len(env), "+8" if trailer else "", 126 + s + t + c + trailer))
    stream, event_type = env[76:76 + s], env[77 + s:77 + s + t]
    if b"\x00" in stream:
        raise ValueError("stream id contains NUL")
    h = env[41:57].hex()
    return {
        "position": int.from_bytes(env[1:9], "big"),
        "previousHash": env[9:41].hex(),
        "eventId": "%s-%s-%s-%s-%s" % (h[0:8], h[8:12], h[12:16], h[16:20], h[20:32]),
        "streamVersion": int.from_bytes(env[57:65], "big"),
        "recordedAt": int.from_bytes(env[65:73], "big", signed=True),
        # When it was first recorded: format 2 keeps it before the hash; else it is recordedAt.
        "firstRecordedAt": int.from_bytes(env[-40:-32] if trailer else env[65:73], "big", signed=True),
        "schemaVersion": int.from_bytes(env[73:75], "big"),
        "stream": stream.decode("utf-8"),  # UnicodeDecodeError is a ValueError
        "type": event_type.decode("utf-8"),
        "hash": env[-32:],
    }


# ---------------------------------------------------------------- the procedure

def verify(doc, pinned=None):
    """Steps 1-7 and 9 of Schemas/export.md; returns the verified facts, raises Problem on the first failure.
    `pinned`: the operator's key, which the file's proofs must be signed by."""
    # 1. The format.
    if not isinstance(doc, dict):
        fail(1, "document", "not a Reel export: the document is not a JSON object")
    fmt = doc.get("format")
    if isinstance(fmt, str) and fmt.startswith("reel-export/") and fmt != FORMAT:
        fail(1, "format", "%r is not a version this verifier knows (it knows %r)" % (fmt, FORMAT))
    if fmt != FORMAT:
        fail(1, "format", "not a Reel export: format is %s, expected %r" % (json.dumps(fmt) if "format" in doc else "missing", FORMAT))

    # 2. The history's shape.
    account = member(doc, "account", "document", 2)
    history = member(doc, "history", "document", 2)
    if not isinstance(account, dict):
        fail(2, "account", "is not a JSON object")
    if not isinstance(history, list):
        fail(2, "history", "is not an array")
    if not history:
        fail(2, "history", "is empty (an account's history starts with account-opened)")
    times, last_position = [], None
    for i, entry in enumerate(history):
        here = "history[%d]" % i
        if not isinstance(entry, dict):
            fail(2, here, "is not a JSON object", i)
        position = entry.get("position")
        if not is_int(position) or position < 1:
            fail(2, here, "position is %s, not a positive integer" % json.dumps(position), i)
        here = "history[%d] (position %d)" % (i, position)
        where = lambda detail: fail(2, here, detail, i, position)
        if last_position is not None and position <= last_position:
            where("position is not greater than history[%d]'s position %d" % (i - 1, last_position))
        version = entry.get("streamVersion")
        if not is_int(version) or version != i + 1:
            where("streamVersion is %s, expected %d (entry i has version i+1; an event is missing, added or moved)"
                  % (json.dumps(version), i + 1))
        event_type = entry.get("type")
        if not isinstance(event_type, str) or not event_type:
            where("type is %s, not a non-empty string" % json.dumps(event_type))
        if i == 0 and event_type != "account-opened":
            where("the first event is %r, not 'account-opened'" % event_type)
        if event_type == "account-deleted":
            where("the account is deleted (account-deleted): a deleted account cannot be exported")
        at = parse_time(entry.get("recordedAt"))
        if at is None:
            where("recordedAt is %s, not RFC 3339 UTC with 6 fractional digits" % json.dumps(entry.get("recordedAt")))
        if times and at < times[-1]:
            where("recordedAt %s is before the previous entry's %s" % (entry["recordedAt"], iso(times[-1])))
        times.append(at)
        last_position = position
    events = member(account, "events", "account", 2)
    if not is_int(events) or events != len(history):
        fail(2, "account.events", "is %s but history holds %d events" % (json.dumps(events), len(history)))
    status = member(account, "status", "account", 2)
    if status != "open":
        fail(2, "account.status", "is %s, not 'open'" % json.dumps(status))
    stream = member(account, "stream", "account", 2)
    if not isinstance(stream, str) or not stream:
        fail(2, "account.stream", "is %s, not a non-empty string" % json.dumps(stream))

    # 3. Each envelope: parses, its hash is right, and the clear fields are the envelope's.
    first_times = []  # when each event was first recorded (the replay's times, step 7)
    envelopes = []  # each entry's envelope bytes (their leaves, step 8)
    for i, entry in enumerate(history):
        position = entry["position"]
        here = "history[%d] (position %d)" % (i, position)
        env = b64(entry.get("envelope"), 3, here, "envelope", i, position)
        envelopes.append(env)
        try:
            fields = parse_envelope(env)
        except ValueError as e:
            fail(3, here, "envelope does not parse (ledger-layout.md): %s" % e, i, position)
        if hashlib.sha256(env[:-32]).digest() != fields["hash"]:
            fail(3, here, "envelope hash field %s is not SHA-256 of the envelope's other bytes (%s): the envelope was altered"
                 % (fields["hash"].hex(), hashlib.sha256(env[:-32]).hexdigest()), i, position)
        first_times.append(fields["firstRecordedAt"])
        expected = dict(fields, hash=fields["hash"].hex(), recordedAt=iso(fields["recordedAt"]))
        for key in ("position", "previousHash", "eventId", "streamVersion", "recordedAt", "schemaVersion", "stream",
                    "type", "hash"):
            clear = account["stream"] if key == "stream" else entry.get(key)
            name = "account.stream" if key == "stream" else key
            if clear != expected[key] or type(clear) is not type(expected[key]):
                fail(3, here, "%s is %s but the envelope says %s" % (name, json.dumps(clear), json.dumps(expected[key])), i, position)

    # 4. Each payload hashes to payloadSha256.
    for i, entry in enumerate(history):
        position = entry["position"]
        here = "history[%d] (position %d)" % (i, position)
        payload = entry.get("payload")
        if not isinstance(payload, dict):
            fail(4, here, "payload is %s, not a JSON object" % ("missing" if "payload" not in entry else json.dumps(payload)), i, position)
        try:
            digest = hashlib.sha256(canonical(payload)).hexdigest()
        except RecursionError:
            fail(4, here, "payload is nested too deeply", i, position)
        except ValueError as e:
            fail(4, here, "payload has no canonical form: %s" % e, i, position)
        if entry.get("payloadSha256") != digest:
            fail(4, here, "payloadSha256 is %s but the payload's canonical JSON hashes to %s: the payload or its hash was altered"
                 % (json.dumps(entry.get("payloadSha256")), digest), i, position)

    # 5. The segment lies in the chain and ends within it.
    chain = member(doc, "chain", "document", 5)
    if member(chain, "layout", "chain", 5) != LAYOUT:
        fail(5, "chain.layout", "is %s, expected %r" % (json.dumps(chain["layout"]), LAYOUT))
    head_position, head_hash = member(chain, "headPosition", "chain", 5), member(chain, "headHash", "chain", 5)
    head_time = parse_time(member(chain, "headRecordedAt", "chain", 5))
    if not is_int(head_position) or head_position < 1:
        fail(5, "chain.headPosition", "is %s, not a positive integer" % json.dumps(head_position))
    if not is_hex64(head_hash):
        fail(5, "chain.headHash", "is %s, not 64 lowercase hex digits" % json.dumps(head_hash))
    if head_time is None:
        fail(5, "chain.headRecordedAt", "is %s, not RFC 3339 UTC with 6 fractional digits" % json.dumps(chain["headRecordedAt"]))
    for i, entry in enumerate(history):
        position = entry["position"]
        here = "history[%d] (position %d)" % (i, position)
        if position == 1 and entry["previousHash"] != ZERO_HASH:
            fail(5, here, "previousHash of position 1 is %s, expected 64 zeros" % entry["previousHash"], i, position)
        if i > 0 and position == history[i - 1]["position"] + 1 and entry["previousHash"] != history[i - 1]["hash"]:
            fail(5, here, "previousHash %s is not the hash %s of history[%d] (position %d), the event just before it"
                 % (entry["previousHash"], history[i - 1]["hash"], i - 1, position - 1), i, position)
    i, last = len(history) - 1, history[-1]
    here = "history[%d] (position %d)" % (i, last["position"])
    if last["position"] > head_position:
        fail(5, here, "is after the chain head %d the export names" % head_position, i, last["position"])
    if last["position"] == head_position:
        if last["hash"] != head_hash:
            fail(5, here, "is the chain head but its hash %s is not chain.headHash %s" % (last["hash"], head_hash), i, last["position"])
        if times[-1] != head_time:
            fail(5, here, "is the chain head but recordedAt %s is not chain.headRecordedAt %s"
                 % (last["recordedAt"], chain["headRecordedAt"]), i, last["position"])
    elif head_time < times[-1]:
        fail(5, "chain.headRecordedAt", "%s is before the last exported event's recordedAt %s (history[%d], position %d)"
             % (chain["headRecordedAt"], last["recordedAt"], i, last["position"]))

    # 6. The photo's bytes.
    settings = member(doc, "settings", "document", 6)
    photo = member(settings, "photo", "settings", 6)
    if photo is not None:
        if not isinstance(photo, dict):
            fail(6, "settings.photo", "is neither null nor an object")
        data = b64(member(photo, "data", "settings.photo", 6), 6, "settings.photo", "data")
        size, sha = member(photo, "bytes", "settings.photo", 6), member(photo, "sha256", "settings.photo", 6)
        if not is_int(size) or len(data) != size:
            fail(6, "settings.photo", "data decodes to %d bytes but bytes is %s" % (len(data), json.dumps(size)))
        if hashlib.sha256(data).hexdigest() != sha:
            fail(6, "settings.photo", "data hashes to %s but sha256 is %s" % (hashlib.sha256(data).hexdigest(), json.dumps(sha)))

    # 7. Replay the payloads: the saved list, settings and account must be what they give.
    handle, opened_at, name, language, photo_ref = None, None, None, DEFAULT_LANGUAGE, None
    saved = {}  # (mediaType, id) -> (addedAt µs, position, history index), in the order added
    for i, entry in enumerate(history):
        position, event_type, payload = entry["position"], entry["type"], entry["payload"]
        here = "history[%d] (position %d)" % (i, position)

        def bad(detail):
            fail(7, here, "%s payload %s: %s" % (event_type, canonical(payload).decode("utf-8"), detail), i, position)

        if event_type not in KNOWN_TYPES:
            continue  # an unknown type is only counted
        if entry["schemaVersion"] != 1:
            fail(7, here, "%s at schema version %d: this verifier replays version 1 payloads only"
                 % (event_type, entry["schemaVersion"]), i, position)

        def key():
            media, ident = payload.get("mediaType"), payload.get("id")
            if media not in ("movie", "tv") or not is_int(ident) or not 1 <= ident <= 2147483647:
                bad("expected mediaType (movie or tv) and an id from 1 to 2147483647")
            return media, ident

        if event_type == "account-opened":
            if not isinstance(payload.get("handle"), str):
                bad("expected handle")
            handle, opened_at = payload["handle"], first_times[i]
        elif event_type == "favorite-added":
            k = key()
            if k not in saved:
                saved[k] = (first_times[i], position, i)
        elif event_type == "favorite-imported":
            k = key()
            added = parse_time(payload.get("addedAt"), exact=False)
            if added is None:
                bad("expected addedAt (RFC 3339 UTC)")
            if not isinstance(payload.get("source"), str) or not payload["source"]:
                bad("expected source")
            if k not in saved:
                saved[k] = (added, position, i)
        elif event_type == "favorite-removed":
            saved.pop(key(), None)
        elif event_type == "profile-name-changed":
            if not isinstance(payload.get("name"), str):
                bad("expected name")
            name = payload["name"]
        elif event_type == "profile-photo-changed":
            ref = payload.get("photo")
            if not isinstance(ref, dict) or not all(f in ref for f in PHOTO_FIELDS):
                bad("expected photo {sha256, contentType, bytes, width, height}")
            photo_ref = {f: ref[f] for f in PHOTO_FIELDS}
        elif event_type == "profile-photo-removed":
            photo_ref = None
        elif event_type == "language-switched":
            if not isinstance(payload.get("language"), str) or not payload["language"]:
                bad("expected language")
            language = payload["language"]

    if member(account, "handle", "account", 7) != handle:
        fail(7, "account.handle", "is %s but account-opened says %s" % (json.dumps(account["handle"]), json.dumps(handle)))
    if member(account, "openedAt", "account", 7) != iso(opened_at):
        fail(7, "account.openedAt", "is %s but account-opened was recorded at %s" % (json.dumps(account["openedAt"]), iso(opened_at)))
    listed = member(doc, "saved", "document", 7)
    if not isinstance(listed, list):
        fail(7, "saved", "is not an array")
    saved = [(k,) + v for k, v in saved.items()]
    for n in range(max(len(listed), len(saved))):
        here = "saved[%d]" % n
        if n >= len(saved):
            fail(7, here, "%s is listed but the history leaves only %d saved titles" % (json.dumps(listed[n]), len(saved)))
        (media, ident), added, position, i = saved[n]
        source = "history[%d] (position %d)" % (i, position)
        if n >= len(listed):
            fail(7, here, "is missing: the history saves %s %d at %s" % (media, ident, source))
        item = listed[n]
        if not isinstance(item, dict):
            fail(7, here, "is not a JSON object")
        want = {"mediaType": media, "id": ident, "addedAt": iso(added), "position": position}
        for field, value in want.items():
            got = item.get(field)
            if got != value or type(got) is not type(value):
                fail(7, here, "%s is %s but the history gives %s (%s %d, saved at %s)"
                     % (field, json.dumps(got) if field in item else "missing", json.dumps(value), media, ident, source))
    if member(settings, "name", "settings", 7) != name:
        fail(7, "settings.name", "is %s but the history gives %s" % (json.dumps(settings["name"]), json.dumps(name)))
    if member(settings, "language", "settings", 7) != language:
        fail(7, "settings.language", "is %s but the history gives %s" % (json.dumps(settings["language"]), json.dumps(language)))
    if photo_ref is None and photo is not None:
        fail(7, "settings.photo", "is present but the history leaves no photo")
    if photo_ref is not None:
        if photo is None:
            fail(7, "settings.photo", "is null but the history sets the photo %s" % photo_ref["sha256"])
        for field in PHOTO_FIELDS:
            if photo.get(field) != photo_ref[field] or type(photo.get(field)) is not type(photo_ref[field]):
                fail(7, "settings.photo", "%s is %s but the history gives %s"
                     % (field, json.dumps(photo.get(field)), json.dumps(photo_ref[field])))

    # 9. The proofs that the envelopes are in the operator's ledger, when the file carries them.
    proved = transparency(doc.get("transparency"), history, envelopes, pinned)

    return {
        "provedIn": proved,
        "format": FORMAT, "exportedAt": doc.get("exportedAt"), "handle": handle, "stream": account["stream"], "events": len(history),
        "firstPosition": history[0]["position"], "lastPosition": last["position"], "saved": len(saved),
        "photo": photo is not None, "headPosition": head_position, "headHash": head_hash,
        "atHead": last["position"] == head_position,
    }


# --- Step 9: Ed25519 (RFC 8032, section 5.1), signed notes (C2SP), RFC 6962 trees -------------------

_P = 2 ** 255 - 19
_L = 2 ** 252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _recover_x(y, sign):
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P != 0:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P != 0:
        return None
    if (x & 1) != sign:
        x = _P - x
    return x


def _point_add(a, b):
    """Extended twisted Edwards coordinates (X, Y, Z, T), RFC 8032 section 5.1.4."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    pa = (y1 - x1) * (y2 - x2) % _P
    pb = (y1 + x1) * (y2 + x2) % _P
    pc = t1 * 2 * _D * t2 % _P
    pd = z1 * 2 * z2 % _P
    e, f, g, h = pb - pa, pd - pc, pd + pc, pb + pa
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _point_mul(scalar, point):
    result = (0, 1, 1, 0)
    while scalar > 0:
        if scalar & 1:
            result = _point_add(result, point)
        point = _point_add(point, point)
        scalar >>= 1
    return result


def _point_equal(a, b):
    return (a[0] * b[2] - b[0] * a[2]) % _P == 0 and (a[1] * b[2] - b[1] * a[2]) % _P == 0


def _decompress(data):
    if len(data) != 32:
        return None
    y = int.from_bytes(data, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % _P)


_GY = 4 * pow(5, _P - 2, _P) % _P
_GX = _recover_x(_GY, 0)
_G = (_GX, _GY, 1, _GX * _GY % _P)


def ed25519_verify(public, message, signature):
    """RFC 8032 section 5.1.7: whether `signature` is `public`'s over `message`."""
    if len(public) != 32 or len(signature) != 64:
        return False
    a, r = _decompress(public), _decompress(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= _L:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % _L
    return _point_equal(_point_mul(s, _G), _point_add(r, _point_mul(h, a)))


def parse_key(text):
    """A signed-note verifier key `name+hash+base64(0x01 || key)`: (name, key hash, public key), or None."""
    parts = text.strip().split("+", 2) if isinstance(text, str) else []
    if len(parts) != 3 or not parts[0] or any(c.isspace() for c in parts[0]):
        return None
    try:
        raw = base64.b64decode(parts[2], validate=True)
    except ValueError:
        return None
    if len(raw) != 33 or raw[0] != 1:
        return None
    key_hash = hashlib.sha256(parts[0].encode() + b"\n" + raw).digest()[:4]
    return (parts[0], key_hash, raw[1:]) if key_hash.hex() == parts[1] else None


def open_note(note, key):
    """The body of the signed note `note` when a signature line of `key` verifies; else None."""
    name, key_hash, public = key
    split = note.rfind("\n\n")
    if split < 0 or not note.endswith("\n"):
        return None
    body = note[:split + 1]
    for line in note[split + 2:-1].split("\n"):
        fields = line.split(" ")
        if len(fields) != 3 or fields[0] != "\u2014":
            return None
        if fields[1] != name:
            continue
        try:
            sig = base64.b64decode(fields[2], validate=True)
        except ValueError:
            continue
        if len(sig) == 68 and sig[:4] == key_hash and ed25519_verify(public, body.encode(), sig[4:]):
            return body
    return None


def _node(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def check_inclusion(leaf, index, size, path, root):
    """RFC 9162 section 2.1.3.2."""
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = _node(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = _node(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def transparency(value, history, envelopes, pinned):
    """Step 9: the checkpoint signed by the key the file names (and by `pinned`, when given), and each
    entry's inclusion proof; returns {origin, size, key}, or None for a file without proofs."""
    if value is None:
        if pinned is not None:
            fail(9, "transparency", "the file carries no proofs, and --key asks for proofs signed by that key")
        return None
    if not isinstance(value, dict) or set(value) != {"checkpoint", "key", "proofs"}:
        fail(9, "transparency", "is not {checkpoint, key, proofs}")
    key = parse_key(value["key"])
    if key is None:
        fail(9, "transparency.key", "is not a checkpoint key (name+hash+base64 of an Ed25519 key)")
    if pinned is not None and value["key"] != pinned:
        fail(9, "transparency.key", "is %s, not the key given (%s)" % (json.dumps(value["key"]), pinned))
    note = value["checkpoint"]
    body = open_note(note, key) if isinstance(note, str) else None
    lines = body.split("\n") if body else []
    if body is None or len(lines) < 4 or lines[0] != key[0]:
        fail(9, "transparency.checkpoint", "is not a checkpoint signed by the key %s" % key[0])
    try:
        size = int(lines[1])
        root = base64.b64decode(lines[2], validate=True)
    except ValueError:
        size, root = -1, b""
    if str(size) != lines[1] or size < 0 or len(root) != 32:
        fail(9, "transparency.checkpoint", "its size or tree hash does not parse")
    proofs = value["proofs"]
    if not isinstance(proofs, list) or len(proofs) != len(history):
        fail(9, "transparency.proofs", "holds %s proofs for %d events" % (len(proofs) if isinstance(proofs, list) else "no", len(history)))
    for i, (proof, entry, env) in enumerate(zip(proofs, history, envelopes)):
        position = entry["position"]
        here = "transparency.proofs[%d] (position %d)" % (i, position)
        path = []
        for item in proof if isinstance(proof, list) else [None]:
            try:
                raw = base64.b64decode(item, validate=True) if isinstance(item, str) else b""
            except ValueError:
                raw = b""
            if len(raw) != 32:
                fail(9, here, "is not an array of hashes in base64", i, position)
            path.append(raw)
        leaf = hashlib.sha256(b"\x00" + env).digest()
        if not check_inclusion(leaf, position - 1, size, path, root):
            fail(9, here, "does not prove the envelope in the checkpoint's tree (%d events)" % size, i, position)
    return {"origin": key[0], "size": size, "key": value["key"]}


def load(path):
    """The parsed document; Unusable when the file cannot be read or is not JSON; Problem on a duplicate key."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise Unusable("cannot read: %s" % (e.strerror or e))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Unusable("not JSON: not UTF-8 (byte %d)" % e.start)

    def pairs(items):
        obj = {}
        for k, v in items:
            if k in obj:
                raise Problem(1, "document", "the key %s appears twice in one object: a reader could take either value"
                              % json.dumps(k))
            obj[k] = v
        return obj

    def constant(name):
        raise ValueError("%s is not JSON" % name)

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as e:
        truncated = not text.rstrip().endswith("}")
        raise Unusable("not JSON: %s (line %d column %d)%s" % (e.msg, e.lineno, e.colno,
                       " (the file does not end with '}': truncated?)" if truncated else ""))
    except (ValueError, RecursionError) as e:
        raise Unusable("not JSON: %s" % e)


def main():
    parser = argparse.ArgumentParser(prog=PROG, description="Verify a Reel account export (reel-export/1) without Reel.")
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--json", action="store_true", help="also print one JSON report on stdout")
    parser.add_argument("--key", metavar="KEY", help="the operator's published key (reel audit key): the file's proofs must be signed by it")
    args = parser.parse_args()  # exits 2 on usage errors

    report = {"ok": False, "file": args.file, "format": None, "exportedAt": None, "handle": None, "stream": None, "events": None,
              "firstPosition": None, "lastPosition": None, "saved": None, "photo": None, "headPosition": None,
              "headHash": None, "atHead": None, "provedIn": None, "problem": None}
    try:
        facts = verify(load(args.file), pinned=args.key)
        report.update(facts, ok=True)
    except Unusable as e:
        print("%s: %s: %s" % (PROG, args.file, e), file=sys.stderr)
        sys.exit(2)
    except Problem as p:
        report["problem"] = {"step": p.step, "where": p.where, "index": p.index, "position": p.position, "detail": p.detail}

    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    if report["ok"]:
        if not args.json:
            r = report
            print("OK %s: account %r (%s): %d events, positions %d..%d, %d saved%s; %s chain head %d %s"
                  % (args.file, r["handle"], r["stream"], r["events"], r["firstPosition"], r["lastPosition"], r["saved"],
                     ", photo" if r["photo"] else "", "ends at the" if r["atHead"] else "ends before the", r["headPosition"],
                     r["headHash"])
                  + ("; every event proved in %s of %d events, signed by %s" % (r["provedIn"]["origin"], r["provedIn"]["size"], r["provedIn"]["key"])
                     if r["provedIn"] else "; no proofs in the file"))
        sys.exit(0)
    p = report["problem"]
    print("%s: %s: %s: %s [step %d]" % (PROG, args.file, p["where"], p["detail"], p["step"]), file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()
