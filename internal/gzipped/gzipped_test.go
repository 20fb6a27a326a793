package gzipped

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"GZIP", true},
		{"deflate, gzip;q=0.5", true},
		{"br, *", false},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"identity", false},
		{"x-gzip", false},
	} {
		r, _ := http.NewRequest(http.MethodGet, "/", nil)
		if tc.header != "" {
			r.Header.Set("Accept-Encoding", tc.header)
		}
		if got := Accepts(r); got != tc.want {
			t.Errorf("Accepts(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

func TestCompressRoundTrips(t *testing.T) {
	body := bytes.Repeat([]byte(`{"id":"a","text":"some signal text"},`), 200)
	z := Compress(body)
	if len(z) >= len(body)/4 {
		t.Errorf("compressed %d bytes to %d", len(body), len(z))
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("round trip: %v, equal %v", err, bytes.Equal(got, body))
	}
}
