#!/usr/bin/env bash
# Compares the list throughput of the real server with a bare net/http
# server writing the same bytes: N synthetic signals in a fresh database,
# 16 keep-alive clients, alternating one-second slices between the two, once
# the server's background work (substring index, embeddings) is done.
#
#   bash scripts/compare-bare.sh [-n N] [-slices S] [-accounts A] [-db URL] [-redis URL] [-gzip] [-wrk]
#
#   -n N         synthetic signals (default 100000)
#   -slices S    one-second slices per server (default 10)
#   -accounts A  accounts, each with its own key, that the 16 clients take in
#                turn (default 1); a list such as 1,16 measures each in turn
#                on the same server
#   -db URL      a postgres:// URL of a database to connect to first: the
#                script creates a fresh database beside it, and drops it at
#                the end (default: a fresh SQLite file)
#   -redis URL   the server counts in Redis (SIGNALS_REDIS_URL=URL); "start"
#                starts a redis-server of its own for the run (appendonly
#                yes, appendfsync everysec), stopped at the end, and reports
#                its commands per request served and their cost
#   -gzip        the clients ask for gzip, and the bare server sends the
#                gzipped bytes of the same response
#   -wrk         load with wrk (16 connections, 2 threads; with several
#                accounts, each request takes the next account's key, as
#                tools/compare does) in 5-second slices, alternating,
#                instead of tools/compare:
#                a lighter client, which leaves more of the machine to the
#                servers and so shows their own costs more; with Redis it
#                loads a third server in turn, bare net/http counting each
#                request in that Redis with Signals' script first (tools/bare
#                -redis), the floor of any server that counts every request
#                there, and prints the ratios to it too
#
# With -db it also reports PostgreSQL's commits per request served by
# Signals: the growth of pg_stat_database.xact_commit of the fresh database
# (every transaction, reads included) over the comparison, divided by the
# requests Signals answered in it; and, apart, the commits the server makes
# while idle (its checks and batched writes), measured over an idle stretch
# just before, and the per-request figure without them.
set -euo pipefail
cd "$(dirname "$0")/.."
n=100000 slices=10 accounts=1 db="" redis="" gzip=() wrk=""
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    -slices) slices=$2; shift 2 ;;
    -accounts) accounts=$2; shift 2 ;;
    -db) db=$2; shift 2 ;;
    -redis) redis=$2; shift 2 ;;
    -gzip) gzip=(-gzip); shift ;;
    -wrk) wrk=1; shift ;;
    *) echo "usage: $0 [-n N] [-slices S] [-accounts A] [-db postgres://...] [-redis redis://...|start] [-gzip] [-wrk]" >&2; exit 2 ;;
  esac
done
if [ -n "$wrk" ]; then
  command -v wrk >/dev/null || { echo "-wrk needs wrk (apt-get install wrk)" >&2; exit 2; }
fi
dir=$(mktemp -d)
fresh=""
cleanup() {
  kill ${pid:-} ${bare:-} ${floor:-} 2>/dev/null || true
  wait ${pid:-} 2>/dev/null || true
  if [ "$redis" = start ]; then redis-cli -s "$dir/redis.sock" shutdown nosave >/dev/null 2>&1 || true; fi
  if [ -n "$fresh" ]; then psql -q "$db" -c "DROP DATABASE IF EXISTS $fresh WITH (FORCE)" >/dev/null 2>&1 || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -n "$db" ]; then
  fresh="signals_bench_$$"
  psql -q "$db" -c "CREATE DATABASE $fresh"
  base=${db%%\?*}
  query=""
  if [ "$base" != "$db" ]; then query="?${db#*\?}"; fi
  export SIGNALS_DATABASE="${base%/*}/$fresh$query"
else
  export SIGNALS_DATABASE="$dir/load.db"
fi
if [ "$redis" = start ]; then
  # A free port: the server exits at once when the one drawn is taken, and
  # its socket answers only once it listens on the port too.
  for _ in $(seq 1 20); do
    redis_port=$(( 20000 + RANDOM % 20000 ))
    redis-server --bind 127.0.0.1 --port "$redis_port" --unixsocket "$dir/redis.sock" --dir "$dir" \
      --save '' --appendonly yes --appendfsync everysec --logfile "$dir/redis.log" --daemonize no &
    redis_pid=$!
    until [ "$(redis-cli -s "$dir/redis.sock" ping 2>/dev/null)" = PONG ] || ! kill -0 "$redis_pid" 2>/dev/null; do sleep 0.1; done
    kill -0 "$redis_pid" 2>/dev/null && break
  done
  export SIGNALS_REDIS_URL="redis://127.0.0.1:$redis_port"
elif [ -n "$redis" ]; then
  export SIGNALS_REDIS_URL="$redis"
fi
go build -o "$dir/signals" ./cmd/signals
go build -o "$dir/bare" ./tools/bare
go build -o "$dir/compare" ./tools/compare
go run ./tools/synth -n "$n" > "$dir/signals.jsonl"
SECONDS=0
"$dir/signals" import "$dir/signals.jsonl" 2>/dev/null
echo "imported $n signals in ${SECONDS}s"
: > "$dir/keys"
most=$(tr ',' '\n' <<< "$accounts" | sort -n | tail -1)
for i in $(seq 1 "$most"); do
  "$dir/signals" accounts create --email "load$i@example.com" 2>/dev/null
  "$dir/signals" accounts set-limits --email "load$i@example.com" --daily-requests 100000000 --minute-requests 100000000 >/dev/null
  "$dir/signals" keys create --email "load$i@example.com" >> "$dir/keys"
done
key=$(head -1 "$dir/keys")
port=$(( 20000 + RANDOM % 20000 ))
SIGNALS_OUTBOX="$dir/outbox" "$dir/signals" serve --addr "127.0.0.1:$port" 2>"$dir/serve.log" &
pid=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null || { echo "the server did not start:" >&2; cat "$dir/serve.log" >&2; exit 1; }
# Measure the steady state: once the first start has filled the substring
# index and embedded the signals for semantic search, both of which it says.
for what in "indexed substrings" "embedded signals"; do
  for _ in $(seq 1 6000); do grep -q "$what" "$dir/serve.log" && break; kill -0 "$pid" || break; sleep 0.1; done
  grep -q "$what" "$dir/serve.log" || { echo "the server did not say \"$what\" within 10 minutes:" >&2; tail -5 "$dir/serve.log" >&2; exit 1; }
done
echo "background work done at ${SECONDS}s"
sleep 3
path='/api/v1/signals?page_size=20&tags=funding,job'
"$dir/bare" "${gzip[@]}" -from "http://127.0.0.1:$port$path" -key "$key" -addr "127.0.0.1:$((port + 1))" &
bare=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$((port + 1))/" >/dev/null && break; sleep 0.1; done
floor_port=""
if [ -n "$wrk" ] && [ -n "${SIGNALS_REDIS_URL:-}" ]; then
  floor_port=$((port + 2))
  "$dir/bare" "${gzip[@]}" -from "http://127.0.0.1:$port$path" -key "$key" -addr "127.0.0.1:$floor_port" -redis "$SIGNALS_REDIS_URL" &
  floor=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$floor_port/" >/dev/null && break; sleep 0.1; done
fi
store=SQLite; if [ -n "$db" ]; then store=PostgreSQL; fi
if [ -n "${SIGNALS_REDIS_URL:-}" ]; then store="$store + Redis"; fi
# commits prints the fresh database's transactions committed so far. A
# backend reports its counts to the statistics when it goes idle, at most
# once a second, and an idle one within 10 s: wait that long first.
commits() {
  sleep 11
  psql -qtA "$SIGNALS_DATABASE" -c "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
}
# redis_cpu prints the CPU seconds of the Redis started here, its network
# work included.
redis_cpu() { redis-cli -s "$dir/redis.sock" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ { s += $2 } END { print s }'; }
# wrk_slices loads the server on port $1 and the bare one on $2 in turn,
# and the floor on $3 if given, 5-second slices of wrk, and prints the lines
# tools/compare prints (the requests each served, req/s, their ratio).
wrk_slices() {
  local headers=(-H "Authorization: Bearer $key") keyed=()
  if [ ${#gzip[@]} -gt 0 ]; then headers+=(-H "Accept-Encoding: gzip"); fi
  if [ "$(wc -l < "$dir/keys-$a")" -gt 1 ]; then
    # Each request takes the next key in turn, in each of wrk's threads.
    keyed=(-s "$dir/keys.lua")
    headers=()
    cat > "$dir/keys.lua" <<LUA
local keys, i = {}, 0
for line in io.lines("$dir/keys-$a") do keys[#keys + 1] = "Bearer " .. line end
local gzip = ${#gzip[@]} > 0
request = function()
  i = i % #keys + 1
  local h = {Authorization = keys[i]}
  if gzip then h["Accept-Encoding"] = "gzip" end
  return wrk.format("GET", nil, h)
end
LUA
  fi
  local ports=("$@") names=(a b c)
  for i in $(seq 1 "$slices"); do
    for j in "${!ports[@]}"; do
      wrk -t2 -c16 -d5s "${headers[@]}" "${keyed[@]}" "http://127.0.0.1:${ports[$j]}$path" |
        awk -v side="${names[$j]}" '/^ *[0-9]+ requests in/ { print side, $1 }'
    done
  done | awk -v s="$slices" '
    { n[$1] += $2 }
    END {
      printf "a wrk %d requests %d req/s\n", n["a"], n["a"] / (5 * s)
      printf "b wrk %d requests %d req/s\n", n["b"], n["b"] / (5 * s)
      if ("c" in n) printf "c wrk %d requests %d req/s (bare net/http counting in Redis)\n", n["c"], n["c"] / (5 * s)
      printf "a/b throughput ratio %.2f\n", n["a"] / n["b"]
      if ("c" in n) {
        printf "c/b throughput ratio %.2f (the floor: bare net/http counting in Redis, to bare)\n", n["c"] / n["b"]
        printf "a/c throughput ratio %.2f (Signals to that floor)\n", n["a"] / n["c"]
      }
    }'
}
for a in ${accounts//,/ }; do
  head -n "$a" "$dir/keys" > "$dir/keys-$a"
  echo "store: $store, $n signals, $a account(s)"
  if [ -n "$db" ]; then
    idle_from=$(commits); idle_start=$EPOCHREALTIME
    before=$(commits); start=$EPOCHREALTIME
  fi
  if [ "$redis" = start ]; then
    redis-cli -s "$dir/redis.sock" config resetstat >/dev/null
    cpu_before=$(redis_cpu)
  fi
  if [ -n "$wrk" ]; then
    wrk_slices "$port" "$((port + 1))" $floor_port | tee "$dir/compare.out"
  else
    "$dir/compare" "${gzip[@]}" -a "http://127.0.0.1:$port" -b "http://127.0.0.1:$((port + 1))" -keys "$dir/keys-$a" -path "$path" -slices "$slices" | tee "$dir/compare.out"
  fi
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  served=$(awk '$1 == "a" { print $3 }' "$dir/compare.out")
  # The floor runs one script per request it answered, in the same Redis.
  floor_served=$(awk '$1 == "c" { print $3; found = 1 } END { if (!found) print 0 }' "$dir/compare.out")
  if [ "$redis" = start ]; then
    # cmdstat_evalsha:calls=N,usec=U,...: a script is one round trip, and
    # the commands it runs are counted apart, their time within its own.
    redis-cli -s "$dir/redis.sock" info commandstats | tr -d '\r' | awk -F'[:,=]' -v r="$served" -v f="$floor_served" '
      /^cmdstat_eval/ { scripts += $3; usec += $5 }
      /^cmdstat_/ { what = what sprintf(", %s %d", substr($1, 9), $3) }
      END {
        printf "Redis: %d scripts for %d requests, %.3f per request, %.1f µs each in Redis (calls: %s)\n", scripts - f, r, (scripts - f) / r, usec / scripts, substr(what, 3)
        if (f > 0) printf "  (the floor'"'"'s %d scripts, one per request it answered, left out of the count; the time per script is of all)\n", f
      }'
    awk -v a="$cpu_before" -v b="$(redis_cpu)" -v r="$((served + floor_served))" 'BEGIN { printf "  Redis CPU: %.2f s, %.1f µs per request counted\n", b - a, (b - a) * 1e6 / r }'
  fi
  if [ -n "$db" ]; then
    after=$(commits); end=$EPOCHREALTIME
    awk -v c=$((after - before)) -v r="$served" -v idle=$((before - idle_from)) \
      -v idle_s="$(awk -v a="$idle_start" -v b="$start" 'BEGIN { print b - a }')" \
      -v run_s="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" 'BEGIN {
        rate = idle / idle_s
        printf "PostgreSQL commits: %d for %d requests served by Signals, %.3f per request\n", c, r, c / r
        printf "  while idle: %.1f commits/s; over the %.0f s of the comparison, %.3f per request beyond them\n", rate, run_s, (c - rate * run_s) / r
      }'
  fi
done
