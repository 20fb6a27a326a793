package sentence

// NewTokenizerOnly is an Encoder of spec that tokenizes but cannot embed:
// the tokenizer's tests need no ONNX Runtime.
func NewTokenizerOnly(spec Spec) (*Encoder, error) { return newEncoder(spec) }
