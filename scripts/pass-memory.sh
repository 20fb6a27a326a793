#!/usr/bin/env bash
# Measures the resident memory of a server whose bundled sentence model
# embeds a synthetic archive of N signals (tools/synth) at start: its peak
# during the pass (VmHWM) and what it keeps 60 s after the pass ends
# (VmRSS), with the pass's length and speed from the server's log.
#
#   bash scripts/pass-memory.sh [N]        (default 5000)
source "$(dirname "$0")/archive.sh" "${1:-5000}"
SIGNALS_SEARCH_PROVIDER=onnx SIGNALS_ONNXRUNTIME=$runtime "$dir/signals" serve --addr 127.0.0.1:0 >/dev/null 2>"$dir/serve.log" &
pid=$!
until grep -q 'msg="embedded signals"' "$dir/serve.log"; do
  kill -0 "$pid" 2>/dev/null || { cat "$dir/serve.log" >&2; exit 1; }
  sleep 1
done
grep 'msg="embedded signals"' "$dir/serve.log" | grep -o 'signals=[0-9]*\|duration=[^ ]*' | paste -sd ' '
sleep 60
echo "peak during the pass: $(grep VmHWM /proc/$pid/status | tr -s ' \t' ' ' | cut -d' ' -f2-)"
echo "60 s after it:        $(grep VmRSS /proc/$pid/status | tr -s ' \t' ' ' | cut -d' ' -f2-)"
