package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"

	"signals/internal/store/sqlstore"
)

// littleEndian stores a vector as a blob of its float32s, little-endian.
var littleEndian = sqlstore.Vectors{
	Select: "v.vector",
	Encode: func(v []float32) any {
		b := make([]byte, 4*len(v))
		for i, f := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
		}
		return b
	},
	Decode: func(b []byte) ([]float32, error) {
		if len(b) == 0 {
			return nil, nil
		}
		if len(b)%4 != 0 {
			return nil, fmt.Errorf("a stored vector has %d bytes, not a multiple of 4", len(b))
		}
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	},
}
