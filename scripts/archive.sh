# Sourced by the scripts that measure a server on a synthetic archive:
#
#   source scripts/archive.sh N
#
# builds the binary into a temporary folder $dir (removed on exit, with the
# server whose process id is in $pid), writes N synthetic signals
# (tools/synth), imports them into $dir/archive.db, exported as
# SIGNALS_DATABASE, and sets $runtime to the ONNX Runtime library.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runtime=${SIGNALS_ONNXRUNTIME:-$(bash scripts/onnxruntime.sh)}
dir=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
go build -o "$dir/signals" ./cmd/signals
go run ./tools/synth -n "$1" > "$dir/signals.jsonl"
export SIGNALS_DATABASE="$dir/archive.db"
"$dir/signals" import "$dir/signals.jsonl" 2>/dev/null
