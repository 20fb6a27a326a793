#!/usr/bin/env bash
# Compares the list throughput of the real server with a bare net/http
# server writing the same bytes: N synthetic signals in a fresh SQLite file,
# 16 keep-alive clients, alternating one-second slices between the two.
#
#   bash scripts/compare-bare.sh [N] [SLICES] [gzip]   (default 100000, 10)
#
# With "gzip" the clients ask for gzip, and the bare server sends the
# gzipped bytes of the same response.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
slices=${2:-10}
gzip=()
if [ "${3:-}" = gzip ]; then gzip=(-gzip); fi
dir=$(mktemp -d)
trap 'kill ${pid:-} ${bare:-} 2>/dev/null || true; rm -rf "$dir"' EXIT
go build -o "$dir/signals" ./cmd/signals
go build -o "$dir/bare" ./tools/bare
go build -o "$dir/compare" ./tools/compare
go run ./tools/synth -n "$n" > "$dir/signals.jsonl"
export SIGNALS_DATABASE="$dir/load.db"
"$dir/signals" import "$dir/signals.jsonl" 2>/dev/null
"$dir/signals" accounts create --email load@example.com 2>/dev/null
"$dir/signals" accounts set-limits --email load@example.com --daily-requests 100000000 --minute-requests 100000000 >/dev/null
key=$("$dir/signals" keys create --email load@example.com)
port=$(( 20000 + RANDOM % 20000 ))
"$dir/signals" serve --addr "127.0.0.1:$port" 2>"$dir/serve.log" &
pid=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
# Measure the steady state: after the first start has filled the trigram
# index (and, meanwhile, embedded the signals for semantic search).
for _ in $(seq 1 6000); do grep -q "indexed trigrams" "$dir/serve.log" && break; sleep 0.1; done
sleep 5
path='/api/v1/signals?page_size=20&tags=funding,job'
"$dir/bare" "${gzip[@]}" -from "http://127.0.0.1:$port$path" -key "$key" -addr "127.0.0.1:$((port + 1))" &
bare=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$((port + 1))/" >/dev/null && break; sleep 0.1; done
"$dir/compare" "${gzip[@]}" -a "http://127.0.0.1:$port" -b "http://127.0.0.1:$((port + 1))" -key "$key" -path "$path" -slices "$slices"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
