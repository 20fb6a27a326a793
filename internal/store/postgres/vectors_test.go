package postgres

import (
	"encoding/hex"
	"slices"
	"testing"
)

// The binary forms are what array_send returns for these REAL[] values.
func TestDecodeFloat4Array(t *testing.T) {
	tests := []struct {
		name    string
		hex     string
		want    []float32
		wantErr bool
	}{
		{"two elements", "0000000100000000000002bc00000002000000010000000400000000000000043f800000", []float32{0, 1}, false},
		{"empty", "0000000000000000000002bc", []float32{}, false},
		{"a NULL element", "0000000100000001000002bc0000000100000001ffffffff", nil, true},
		{"not REAL[]", "000000010000000000000017000000010000000100000004000000ff", nil, true},
		{"two dimensions", "0000000200000000000002bc000000020000000100000001000000010000000400000000000000043f800000", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := hex.DecodeString(tt.hex)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeFloat4Array(b)
			if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
				t.Errorf("decode = %v, %v; want %v (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
	if v, err := decodeFloat4Array(nil); v != nil || err != nil {
		t.Errorf("NULL decoded as %v, %v", v, err)
	}
}
