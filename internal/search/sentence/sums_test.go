package sentence_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// sumOf is the sum of name in a sha256sum listing.
func sumOf(t *testing.T, listing []byte, name string) string {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(listing))
	for sc.Scan() {
		if sum, file, ok := strings.Cut(sc.Text(), "  "); ok && file == name {
			return sum
		}
	}
	t.Fatalf("no sum for %s", name)
	return ""
}
