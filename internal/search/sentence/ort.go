//go:build cgo

package sentence

import (
	"errors"
	"fmt"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// Cgo reports whether this build can load ONNX Runtime at all.
const Cgo = true

var (
	loadMu     sync.Mutex
	loadedPath string
)

// Load loads the ONNX Runtime shared library: path when it is not empty,
// else the first of [Locations] that loads. It returns the path it loaded.
// Once a library is loaded, later calls return its path.
func Load(path string) (string, error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if loadedPath != "" {
		return loadedPath, nil
	}
	candidates := []string{path}
	if path == "" {
		candidates = Locations()
	}
	var errs []error
	for _, p := range candidates {
		ort.SetSharedLibraryPath(p)
		err := ort.InitializeEnvironment(ort.WithLogLevelError())
		if err == nil {
			loadedPath = p
			tuneMalloc()
			return p, nil
		}
		errs = append(errs, err)
	}
	return "", fmt.Errorf("%w: %w", ErrNoRuntime, errors.Join(errs...))
}

type ortRunner struct {
	sess       *ort.DynamicAdvancedSession
	dims       int
	tokenTypes bool
}

// newRunner opens a session of spec's model whose runs use at most threads
// cores. With arena, ONNX Runtime keeps the memory of one run for the next
// until the session closes; without, each run's memory is given back when
// it ends.
func newRunner(spec Spec, threads int, arena bool) (runner, error) {
	if !ort.IsInitialized() {
		return nil, fmt.Errorf("%w: call Load first", ErrNoRuntime)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	// One run uses at most threads cores; runs of several goroutines go
	// side by side.
	for _, set := range []func() error{
		func() error { return opts.SetIntraOpNumThreads(max(threads, 1)) },
		func() error { return opts.SetInterOpNumThreads(1) },
		func() error { return opts.SetCpuMemArena(arena) },
		func() error { return opts.AddSessionConfigEntry("session.intra_op.allow_spinning", "0") },
	} {
		if err := set(); err != nil {
			return nil, fmt.Errorf("session options: %w", err)
		}
	}
	inputs := []string{"input_ids", "attention_mask"}
	if spec.TokenTypes {
		inputs = append(inputs, "token_type_ids")
	}
	outs, err := outputName(spec.ONNX)
	if err != nil {
		return nil, err
	}
	sess, err := ort.NewDynamicAdvancedSessionWithONNXData(spec.ONNX, inputs, []string{outs}, opts)
	if err != nil {
		return nil, fmt.Errorf("load model %s: %w", spec.Name, err)
	}
	return &ortRunner{sess: sess, dims: spec.Dims, tokenTypes: spec.TokenTypes}, nil
}

// graphShape reads from onnx whether the graph takes token_type_ids and
// the length of its token vectors (the last dimension of its first
// output), for a candidate model given as a file.
func graphShape(onnx []byte) (tokenTypes bool, dims int, err error) {
	ins, outs, err := ort.GetInputOutputInfoWithONNXData(onnx)
	if err != nil {
		return false, 0, fmt.Errorf("read the model's inputs and outputs: %w", err)
	}
	for _, in := range ins {
		tokenTypes = tokenTypes || in.Name == "token_type_ids"
	}
	if len(outs) == 0 || len(outs[0].Dimensions) == 0 || outs[0].Dimensions[len(outs[0].Dimensions)-1] < 1 {
		return false, 0, errors.New("the model's first output has no fixed last dimension")
	}
	return tokenTypes, int(outs[0].Dimensions[len(outs[0].Dimensions)-1]), nil
}

// outputName is the name of the graph's first output, the token vectors.
func outputName(onnx []byte) (string, error) {
	_, outs, err := ort.GetInputOutputInfoWithONNXData(onnx)
	if err != nil {
		return "", fmt.Errorf("read the model's outputs: %w", err)
	}
	if len(outs) == 0 {
		return "", errors.New("the model has no output")
	}
	return outs[0].Name, nil
}

func (r *ortRunner) run(ids, mask, types []int64, batch, tokens int, out []float32) error {
	shape := ort.NewShape(int64(batch), int64(tokens))
	var values []ort.Value
	defer func() {
		for _, v := range values {
			v.Destroy()
		}
	}()
	in := [][]int64{ids, mask}
	if r.tokenTypes {
		in = append(in, types)
	}
	for _, data := range in {
		t, err := ort.NewTensor(shape, data)
		if err != nil {
			return err
		}
		values = append(values, t)
	}
	hidden, err := ort.NewTensor(ort.NewShape(int64(batch), int64(tokens), int64(r.dims)), out)
	if err != nil {
		return err
	}
	values = append(values, hidden)
	return r.sess.Run(values[:len(in)], []ort.Value{hidden})
}

func (r *ortRunner) close() error { return r.sess.Destroy() }
