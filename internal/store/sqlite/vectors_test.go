package sqlite

import (
	"slices"
	"testing"
)

func TestLittleEndianVectors(t *testing.T) {
	v := []float32{1, -0.5, 3.25e-9}
	b := littleEndian.Encode(v).([]byte)
	if len(b) != 12 || b[3] != 0x3f || b[2] != 0x80 {
		t.Errorf("encoded % x, want little-endian float32s", b)
	}
	got, err := littleEndian.Decode(b)
	if err != nil || !slices.Equal(got, v) {
		t.Errorf("decoded %v, %v; want %v", got, err, v)
	}
	if got, err := littleEndian.Decode(nil); got != nil || err != nil {
		t.Errorf("decoded NULL as %v, %v; want no vector", got, err)
	}
	if _, err := littleEndian.Decode(b[:5]); err == nil {
		t.Error("a blob cut short decoded")
	}
}
