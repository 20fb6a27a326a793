package demo

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// vectors are the demo signals' vectors under one semantic-search model,
// computed ahead (tools/demovectors), so that a demo answers searches by
// meaning from its first second instead of after its first indexing pass.
//
//go:embed vectors.bin.gz
var vectors []byte

// Vector is one demo signal's stored vector, for the text it was computed
// from.
type Vector struct {
	// TextSum is TextSum of the text the vector is of: a signal whose text
	// differs gets none.
	TextSum [8]byte
	Vector  []float32
}

// TextSum identifies a text: the first 8 bytes of its SHA-256.
func TextSum(text string) [8]byte {
	sum := sha256.Sum256([]byte(text))
	return [8]byte(sum[:8])
}

// The format: "signals-demo-vectors 1\n", the model's name and "\n", then
// for each signal its id's length (uvarint) and id, its TextSum, the
// vector's length (uvarint) and its float32s, little-endian; all gzipped.
const vectorsMagic = "signals-demo-vectors 1\n"

// Vectors returns the model the bundled demo vectors are of and the vectors
// by signal id.
func Vectors() (model string, byID map[string]Vector, err error) {
	return DecodeVectors(bytes.NewReader(vectors))
}

// EncodeVectors writes vectors of model by signal id, in the order of ids.
func EncodeVectors(w io.Writer, model string, ids []string, byID map[string]Vector) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if strings.Contains(model, "\n") {
		return errors.New("demo vectors: a model name holds no line break")
	}
	b := []byte(vectorsMagic + model + "\n")
	for _, id := range ids {
		v, ok := byID[id]
		if !ok {
			return fmt.Errorf("demo vectors: no vector for %q", id)
		}
		b = binary.AppendUvarint(b, uint64(len(id)))
		b = append(b, id...)
		b = append(b, v.TextSum[:]...)
		b = binary.AppendUvarint(b, uint64(len(v.Vector)))
		for _, x := range v.Vector {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	if _, err := zw.Write(b); err != nil {
		return err
	}
	return zw.Close()
}

// maxDims bounds a vector's length when reading.
const maxDims = 1 << 14

// DecodeVectors reads what EncodeVectors wrote.
func DecodeVectors(r io.Reader) (model string, byID map[string]Vector, err error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return "", nil, fmt.Errorf("demo vectors: %w", err)
	}
	br := bufio.NewReader(zr)
	magic := make([]byte, len(vectorsMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != vectorsMagic {
		return "", nil, errors.New("demo vectors: not a demo vectors file")
	}
	if model, err = br.ReadString('\n'); err != nil {
		return "", nil, fmt.Errorf("demo vectors: model: %w", err)
	}
	model = strings.TrimSuffix(model, "\n")
	byID = map[string]Vector{}
	for {
		n, err := binary.ReadUvarint(br)
		if err == io.EOF {
			return model, byID, nil
		}
		if err != nil || n == 0 || n > 1024 {
			return "", nil, errors.New("demo vectors: bad id length")
		}
		id := make([]byte, n)
		var v Vector
		if _, err := io.ReadFull(br, id); err != nil {
			return "", nil, fmt.Errorf("demo vectors: %w", err)
		}
		if _, err := io.ReadFull(br, v.TextSum[:]); err != nil {
			return "", nil, fmt.Errorf("demo vectors: %w", err)
		}
		dims, err := binary.ReadUvarint(br)
		if err != nil || dims == 0 || dims > maxDims {
			return "", nil, errors.New("demo vectors: bad vector length")
		}
		raw := make([]byte, 4*dims)
		if _, err := io.ReadFull(br, raw); err != nil {
			return "", nil, fmt.Errorf("demo vectors: %w", err)
		}
		v.Vector = make([]float32, dims)
		for i := range v.Vector {
			v.Vector[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		byID[string(id)] = v
	}
}
