#!/usr/bin/env bash
# Installs the ONNX Runtime shared library that the bundled sentence model
# runs on, pinned and checksummed, and prints its path: give it to Signals
# as SIGNALS_ONNXRUNTIME.
#
#   export SIGNALS_ONNXRUNTIME=$(bash scripts/onnxruntime.sh)
#
# The library is taken from Microsoft's onnxruntime wheel on PyPI (1.32.0,
# CPU, Linux x86-64, glibc 2.28 or newer): pip downloads the wheel, its
# SHA-256 is checked, and the library alone is unpacked into DIR (default
# /var/cache/signals/onnxruntime-1.32.0). Nothing is installed into Python.
# A library already there, with the right checksum, is used as it is.
set -euo pipefail

version=1.32.0
wheel=onnxruntime-$version-cp311-cp311-manylinux_2_28_x86_64.whl
wheel_sha256=5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d
lib=libonnxruntime.so.$version
lib_sha256=6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f
dir=${1:-/var/cache/signals/onnxruntime-$version}

fail() { printf 'onnxruntime: %s\n' "$*" >&2; exit 1; }

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  fail "this script installs the Linux x86-64 library; elsewhere see docs/search.md"
fi
if [ -f "$dir/$lib" ] && echo "$lib_sha256  $dir/$lib" | sha256sum -c --status; then
  echo "$dir/$lib"
  exit 0
fi
command -v python3 >/dev/null || fail "python3 (with pip) is needed to download the wheel"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: --implementation cp --python-version 3.11 \
  --abi cp311 --platform manylinux_2_28_x86_64 "onnxruntime==$version" -d "$tmp" >&2 ||
  fail "pip could not download onnxruntime==$version"
[ -f "$tmp/$wheel" ] || fail "pip downloaded $(ls "$tmp"), not $wheel"
echo "$wheel_sha256  $tmp/$wheel" | sha256sum -c --status || fail "$wheel: checksum mismatch"
python3 - "$tmp/$wheel" "$tmp" "$lib" <<'PY'
import sys, zipfile
wheel, out, lib = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    with z.open("onnxruntime/capi/" + lib) as src, open(out + "/" + lib, "wb") as dst:
        dst.write(src.read())
PY
echo "$lib_sha256  $tmp/$lib" | sha256sum -c --status || fail "$lib: checksum mismatch"
mkdir -p "$dir"
install -m 0644 "$tmp/$lib" "$dir/$lib"
echo "$dir/$lib"
