#!/usr/bin/env bash
# Installs what Reel needs beside Swift, only when missing (Debian packages): LMDB, OpenSSL
# (libcrypto), ncursesw (the terminal app), libjpeg-turbo and libpng (image decoding), zlib (kitty
# images' pixels), libchafa and the glib headers it needs (images in the terminal), SQLite
# headers, pkg-config and a C compiler for the benchmark baseline, strace (a test counts how
# often a command opens the ledger), tmux (tests drive `reel` in a real terminal), spin (the
# key store protocol's model is checked by a test), sixel2png from libsixel-bin (tests decode
# sixel output), the chafa command (the image benchmark's baseline); and the Python packages the
# tests use (lmdb for the independent verifier, jsonschema for schema checks) and Schemathesis,
# pinned, which fuzzes a running `reel serve` against its OpenAPI document
# (Tools/schemathesis_check.sh). PostgreSQL (Debian postgresql): the PostgreSQL store's tests
# start servers of their own with initdb and pg_ctl; pg_auto_failover (Debian pg-auto-failover-cli and
# postgresql-15-auto-failover) manages the primary-and-standby pair the failover tests start; Go with
# golang.org/x/mod (golang-go, golang-golang-x-mod-dev) builds Tools/tlogcheck, the third-party check of
# the transparency log's proofs.
set -euo pipefail
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
missing=()
for pkg in wrk postgresql pg-auto-failover-cli postgresql-15-auto-failover golang-go golang-golang-x-mod-dev liblmdb-dev libssl-dev libncurses-dev libsqlite3-dev libturbojpeg0-dev libpng-dev zlib1g-dev libchafa-dev libglib2.0-dev libsixel-bin chafa pkg-config gcc python3-pip spin strace tmux; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ] && ! { [ "${missing[*]}" = "python3-pip" ] && python3 -m pip --version >/dev/null 2>&1; }; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! python3 -c 'import lmdb, jsonschema' 2>/dev/null; then
  python3 -m pip install -q lmdb jsonschema 2>/dev/null || python3 -m pip install -q --break-system-packages lmdb jsonschema
fi
schemathesis_version=4.32.5
if [ "$(schemathesis --version 2>/dev/null)" != "schemathesis, version $schemathesis_version" ]; then
  python3 -m pip install -q "schemathesis==$schemathesis_version" 2>/dev/null || python3 -m pip install -q --break-system-packages "schemathesis==$schemathesis_version"
fi
