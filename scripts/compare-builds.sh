#!/usr/bin/env bash
# Compares the SQLite list throughput of an earlier build with the current
# one in one run: both serve their own copy of the same N synthetic signals
# at once, a bare net/http server writes the bytes of the current one's
# response, and tools/compare alternates one-second slices between two of
# them, round after round: current next to bare, earlier next to bare,
# current next to earlier.
#
#   bash scripts/compare-builds.sh REV [-n N] [-slices S] [-rounds R]
#
#   REV          the earlier build: a commit, tag or branch of this repository
#   -n N         synthetic signals (default 100000)
#   -slices S    one-second slices per server and pair (default 10)
#   -rounds R    rounds of the three pairs (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 REV [-n N] [-slices S] [-rounds R]" >&2; exit 2; }
rev=$1; shift
n=100000 slices=10 rounds=2
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    -slices) slices=$2; shift 2 ;;
    -rounds) rounds=$2; shift 2 ;;
    *) echo "usage: $0 REV [-n N] [-slices S] [-rounds R]" >&2; exit 2 ;;
  esac
done
dir=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  git worktree remove --force "$dir/src" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

git worktree add --detach "$dir/src" "$rev" >/dev/null 2>&1
(cd "$dir/src" && go build -o "$dir/before" ./cmd/signals)
go build -o "$dir/after" ./cmd/signals
go build -o "$dir/bare" ./tools/bare
go build -o "$dir/compare" ./tools/compare
go run ./tools/synth -n "$n" > "$dir/signals.jsonl"

# start BUILD serves BUILD's own copy of the archive, with an account whose
# limits never refuse, and sets the variable BUILD to its base URL; its key
# is in $dir/BUILD.key.
start() {
  local build=$1 port
  export SIGNALS_DATABASE="$dir/$build.db" SIGNALS_OUTBOX="$dir/$build.outbox"
  "$dir/$build" import "$dir/signals.jsonl" 2>/dev/null
  "$dir/$build" accounts create --email "load@example.com" 2>/dev/null
  "$dir/$build" accounts set-limits --email "load@example.com" --daily-requests 100000000 --minute-requests 100000000 >/dev/null
  "$dir/$build" keys create --email "load@example.com" > "$dir/$build.key"
  for _ in $(seq 1 20); do
    port=$(( 20000 + RANDOM % 20000 ))
    "$dir/$build" serve --addr "127.0.0.1:$port" >"$dir/$build.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    kill -0 "${pids[-1]}" 2>/dev/null && break
  done
  printf -v "$build" 'http://127.0.0.1:%s' "$port"
}
start before
start after
for build in before after; do
  for what in "indexed substrings" "embedded signals"; do
    for _ in $(seq 1 6000); do grep -q "$what" "$dir/$build.log" && break; sleep 0.1; done
    grep -q "$what" "$dir/$build.log" || { echo "$build did not say \"$what\" within 10 minutes" >&2; exit 1; }
  done
done
sleep 3
path='/api/v1/signals?page_size=20&tags=funding,job'
bare_port=$(( ${after##*:} + 1 ))
"$dir/bare" -from "$after$path" -key "$(cat "$dir/after.key")" -addr "127.0.0.1:$bare_port" &
pids+=($!)
bare="http://127.0.0.1:$bare_port"
for _ in $(seq 1 100); do curl -fs "$bare/" >/dev/null && break; sleep 0.1; done
echo "before: $rev ($(git rev-parse --short "$rev")), after: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' with uncommitted changes'), $n signals, SQLite"
pair() {
  echo "-- $1 next to $2 (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  local key_b=()
  if [ "$2" != bare ]; then key_b=(-key-b "$(cat "$dir/$2.key")"); fi
  "$dir/compare" -a "${!1}" -b "${!2}" -key "$(cat "$dir/$1.key")" "${key_b[@]}" -path "$path" -slices "$slices"
}
for r in $(seq 1 "$rounds"); do
  echo "== round $r"
  pair after bare
  pair before bare
  pair after before
done
