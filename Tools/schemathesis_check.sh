#!/usr/bin/env bash
# Runs Schemathesis (PyPI `schemathesis`, Tools/install-deps.sh) against a running `reel serve`
# and the OpenAPI document it serves: no answer may be a server error (5xx), and every answer must
# be one the document gives for its operation (status, Content-Type, required headers, JSON body).
#
#   Tools/schemathesis_check.sh URL [ACCOUNT_TOKEN [OPERATOR_TOKEN]]
#
# URL is where the service listens (`reel serve --listen 127.0.0.1:0` prints it). With an account
# token (`reel token create --user HANDLE --json` | .token) the account and catalog routes are
# fuzzed as that account; without one, only their refusals (401) are checked. The operator routes
# (/v1/admin, /metrics) are fuzzed only with the operator token the service was started with.
# Left out always: DELETE /v1/account (it would delete the token's account half-way through the run)
# and the success of GET /v1/events (an event stream does not end; its refusals are checked).
#
# Bounded: SCHEMATHESIS_EXAMPLES test cases per operation (default 20; the whole run takes well
# under two minutes), one worker, at most SCHEMATHESIS_RATE requests (default 40/s, under the
# service's default 50 a second per token). SCHEMATHESIS_SEED makes a run repeatable. Exits non-zero
# when Schemathesis finds a problem; its report says which request, and how to reproduce it.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  echo "usage: $0 URL [ACCOUNT_TOKEN [OPERATOR_TOKEN]]" >&2
  exit 2
fi
url="${1%/}"
account_token="${2:-}"
operator_token="${3:-}"
examples="${SCHEMATHESIS_EXAMPLES:-20}"
rate="${SCHEMATHESIS_RATE:-40/s}"

command -v schemathesis >/dev/null || { echo "$0: schemathesis is not installed (Tools/install-deps.sh)" >&2; exit 2; }

common=(
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
  --max-examples "$examples" --workers 1 --rate-limit "$rate" --request-timeout 20
  --generation-database none --no-color --output-truncate false
)
[ -n "${SCHEMATHESIS_SEED:-}" ] && common+=(--seed "$SCHEMATHESIS_SEED")

# Schemathesis keeps a cache of what it found in the working directory: a scratch one.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"

status=0
run() {
  echo "== schemathesis run $url/openapi.json $*" | sed -E 's/(Bearer )[^ ]+/\1***/g'
  schemathesis run "$url/openapi.json" "${common[@]}" "$@" || status=1
}

# The open routes, and the account routes as the token's account (or refused without one).
account=(--exclude-path-regex '^/(v1/admin/|metrics$)' --exclude-operation-id deleteAccount)
if [ -n "$account_token" ]; then
  run "${account[@]}" --exclude-operation-id events -H "Authorization: Bearer $account_token"
  # The event stream's refusals only (a bad resume point: 400), as its success never ends.
  run --include-operation-id events -H "Authorization: Bearer $account_token" -H "Last-Event-ID: not-a-version" --mode positive --warnings off
else
  run "${account[@]}"
fi

# The operator's routes, with the operator token.
if [ -n "$operator_token" ]; then
  run --include-path-regex '^/(v1/admin/|metrics$)' -H "Authorization: Bearer $operator_token"
fi
exit "$status"
