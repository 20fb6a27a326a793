#!/usr/bin/env bash
# Measures what indexing with the sentence model costs the API: the same
# load (tools/load) on the same archive, first against a server that has
# nothing to index (the builtin scorer, after its pass), then against one
# that is embedding the archive with the bundled model. Reports both, the
# ratio of filtered lists per second and the model server's peak resident
# memory while it indexes.
#
#   bash scripts/load-indexing.sh [N]        (default 100000)
source "$(dirname "$0")/archive.sh" "${1:-100000}"
go build -o "$dir/load" ./tools/load
"$dir/signals" accounts create --email load@example.com 2>/dev/null
"$dir/signals" accounts set-limits --email load@example.com --daily-requests 100000000 --minute-requests 100000000 >/dev/null
key=$("$dir/signals" keys create --email load@example.com)

# serve PROVIDER LOG: starts a server with that scorer, waits until it
# answers and has filled the substring index.
serve() {
  port=$(( 20000 + RANDOM % 20000 ))
  SIGNALS_SEARCH_PROVIDER=$1 SIGNALS_ONNXRUNTIME=$runtime "$dir/signals" serve --addr "127.0.0.1:$port" 2>"$2" &
  pid=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  for _ in $(seq 1 6000); do grep -q "indexed substrings" "$2" && break; sleep 0.1; done
}

serve builtin "$dir/idle.log"
for _ in $(seq 1 1200); do grep -q 'msg="embedded signals"' "$dir/idle.log" && break; sleep 0.1; done
echo "== idle: builtin, its vectors stored"
"$dir/load" -base "http://127.0.0.1:$port" -key "$key" -n 20000 -c 16 | tee "$dir/idle.txt"
kill "$pid"; wait "$pid" 2>/dev/null || true

serve onnx "$dir/indexing.log"
echo "== while the sentence model embeds the archive"
"$dir/load" -base "http://127.0.0.1:$port" -key "$key" -n 20000 -c 16 | tee "$dir/indexing.txt"
if grep -q 'msg="embedded signals"' "$dir/indexing.log"; then
  echo "warning: the model finished indexing before the load did; use a larger N" >&2
fi
echo "embedding so far: $(grep 'msg="embedding signals"' "$dir/indexing.log" | tail -1 | grep -o 'signals=[0-9]*.*' || echo 'no progress line yet')"
echo "model server while indexing: $(grep -E 'VmHWM|VmRSS' /proc/$pid/status | tr -s ' \t' ' ' | paste -sd ' ')"
lists() { grep '^list' "$1" | grep -o '[0-9]* req/s' | cut -d' ' -f1; }
echo "filtered lists/s while indexing against idle: $(echo "scale=3; $(lists "$dir/indexing.txt") / $(lists "$dir/idle.txt")" | bc)"
