#!/usr/bin/env bash
# Makes sure the two servers the tests talk to answer on loopback:
#
#   PostgreSQL on 127.0.0.1:5432, user postgres with trust authentication,
#              and a database named test;
#   Redis      on 127.0.0.1:6379, with 1,000 databases (the tests take one
#              each).
#
# A server that already answers is left exactly as it is. One that does not
# is installed from Debian's packages when missing (postgresql,
# redis-server) and started. When either cannot be made to answer, the
# script says why and exits non-zero: the tests that need it must run.
#
# .ci/run calls it first; run it by hand before "go test" on a fresh
# machine (as root, or with sudo for the install and start):
#
#   bash scripts/services.sh
set -euo pipefail

say() { printf 'services: %s\n' "$*"; }
fail() { printf 'services: %s\n' "$*" >&2; exit 1; }

apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then
    apt-get update -qq || fail "apt-get update failed; cannot install $*"
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || fail "apt-get install $* failed"
}

# ---- PostgreSQL -----------------------------------------------------------

pg_answers() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }

start_postgres() {
  if ! command -v pg_ctlcluster >/dev/null || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    say "installing PostgreSQL (Debian package postgresql)"
    apt_install postgresql
  fi
  local version
  version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  if ! pg_lsclusters -h 2>/dev/null | awk '{print $1, $2}' | grep -qx "$version main"; then
    say "creating the PostgreSQL $version cluster main"
    pg_createcluster --port 5432 "$version" main >/dev/null || fail "pg_createcluster $version main failed"
  fi
  local conf=/etc/postgresql/$version/main
  # Trust on loopback, ahead of the package's password rules (the first
  # matching line wins). Written once, marked, so that a second run finds it.
  if ! grep -q '^# signals tests: trust on loopback' "$conf/pg_hba.conf"; then
    say "allowing trust authentication on loopback in $conf/pg_hba.conf"
    {
      echo '# signals tests: trust on loopback'
      echo 'host all all 127.0.0.1/32 trust'
      echo 'host all all ::1/128 trust'
      cat "$conf/pg_hba.conf"
    } >"$conf/pg_hba.conf.new"
    chown --reference="$conf/pg_hba.conf" "$conf/pg_hba.conf.new"
    chmod --reference="$conf/pg_hba.conf" "$conf/pg_hba.conf.new"
    mv "$conf/pg_hba.conf.new" "$conf/pg_hba.conf"
  fi
  # The socket folder lives on a tmpfs that a machine without an init
  # system never recreates.
  install -d -o postgres -g postgres -m 2775 /var/run/postgresql
  say "starting PostgreSQL $version main on 127.0.0.1:5432"
  if ! pg_ctlcluster --skip-systemctl-redirect "$version" main start; then
    tail -n 20 "/var/log/postgresql/postgresql-$version-main.log" >&2 2>/dev/null || true
    fail "PostgreSQL $version main did not start (its log is above)"
  fi
  for _ in $(seq 1 30); do pg_answers && return; sleep 1; done
  tail -n 20 "/var/log/postgresql/postgresql-$version-main.log" >&2 2>/dev/null || true
  fail "PostgreSQL started but does not answer on 127.0.0.1:5432 within 30 s"
}

if pg_answers; then
  say "PostgreSQL answers on 127.0.0.1:5432; left as it is"
else
  start_postgres
fi
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p 5432 -U postgres "$@"; }
psql_admin -d postgres -tAc 'SELECT 1' >/dev/null 2>&1 ||
  fail "PostgreSQL on 127.0.0.1:5432 refuses user postgres without a password; the tests need trust on loopback (pg_hba.conf)"
if [ "$(psql_admin -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'")" != 1 ]; then
  say "creating database test"
  psql_admin -d postgres -c 'CREATE DATABASE test' >/dev/null
fi
say "PostgreSQL ready: postgres://postgres@127.0.0.1:5432/test"

# ---- Redis ----------------------------------------------------------------

# The Redis tests also start servers and a cluster of their own from
# redis-server, so the binary is needed even when a server answers.
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
  say "installing Redis (Debian package redis-server)"
  apt_install redis-server
fi
redis_answers() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = PONG ]; }
if redis_answers; then
  say "Redis answers on 127.0.0.1:6379; left as it is"
else
  redis_dir=/var/lib/signals-test-redis
  install -d -m 0700 "$redis_dir"
  say "starting Redis on 127.0.0.1:6379 (log: $redis_dir/redis.log)"
  redis-server --bind 127.0.0.1 --port 6379 --dir "$redis_dir" --save '' --appendonly no \
    --databases 1000 --logfile "$redis_dir/redis.log" --daemonize yes >/dev/null ||
    fail "redis-server did not start"
  for _ in $(seq 1 50); do redis_answers && break; sleep 0.1; done
  if ! redis_answers; then
    tail -n 20 "$redis_dir/redis.log" >&2 2>/dev/null || true
    fail "Redis started but does not answer on 127.0.0.1:6379 within 5 s (its log is above)"
  fi
fi
databases=$(redis-cli -h 127.0.0.1 -p 6379 config get databases | tail -1)
if [ "${databases:-0}" -lt 2 ]; then
  fail "Redis on 127.0.0.1:6379 has ${databases:-no} databases; the tests take one each and need several"
fi
say "Redis ready: redis://127.0.0.1:6379 ($databases databases)"
