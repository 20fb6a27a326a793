#!/usr/bin/env bash
# Builds the binary, imports N synthetic signals into a fresh SQLite file,
# serves them on loopback, loads the server and reports import throughput,
# client-side latency and the serving process's peak resident memory.
#
#   bash scripts/load-sqlite.sh [N]        (default 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
dir=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
go build -o "$dir/signals" ./cmd/signals
go run ./tools/synth -n "$n" > "$dir/signals.jsonl"
export SIGNALS_DATABASE="$dir/load.db"
start=$(date +%s.%N)
"$dir/signals" import "$dir/signals.jsonl" 2>/dev/null
end=$(date +%s.%N)
echo "import: $n signals in $(echo "$end - $start" | bc) s ($(echo "$n / ($end - $start)" | bc) signals/s, process start and migration included)"
"$dir/signals" accounts create --email load@example.com 2>/dev/null
"$dir/signals" accounts set-limits --email load@example.com --daily-requests 100000000 --minute-requests 100000000 >/dev/null
key=$("$dir/signals" keys create --email load@example.com)
port=$(( 20000 + RANDOM % 20000 ))
"$dir/signals" serve --addr "127.0.0.1:$port" --log-level debug 2>"$dir/serve.log" &
pid=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
# Serving starts by embedding every public signal for semantic search, once
# (vectors are stored), and filling the trigram index; measure the steady
# state after both.
start=$(date +%s.%N)
for _ in $(seq 1 1200); do grep -q 'op="embed signals"' "$dir/serve.log" && break; sleep 0.1; done
end=$(date +%s.%N)
echo "first start: $(grep 'op="embed signals"' "$dir/serve.log" | grep -o 'signals=[0-9]*' | head -1) embedded in about $(echo "$end - $start" | bc) s"
for _ in $(seq 1 6000); do grep -q "indexed substrings" "$dir/serve.log" && break; sleep 0.1; done
echo "substring index: $(grep "indexed substrings" "$dir/serve.log" | grep -o 'duration=[^ ]*' | head -1)"
go run ./tools/load -base "http://127.0.0.1:$port" -key "$key" -n 20000 -c 16
echo "serving process: $(grep -E 'VmHWM|VmRSS' /proc/$pid/status | tr -s ' \t' ' ' | paste -sd ' ')"
