package auth

import (
	"strings"
	"testing"
)

func TestNewKeyFormat(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		secret, hint, hash := NewKey()
		if !strings.HasPrefix(secret, KeyPrefix) || len(secret) != keyLen {
			t.Fatalf("key %q has the wrong shape", secret)
		}
		if !WellFormed(secret) {
			t.Fatalf("fresh key %q is not well formed", secret)
		}
		if seen[secret] {
			t.Fatal("two keys alike")
		}
		seen[secret] = true
		if !Equal(hash, Hash(secret)) || strings.Contains(hint, secret[len(KeyPrefix)+hintChars:]) {
			t.Fatalf("hash or hint wrong for %q (hint %q)", secret, hint)
		}
	}
}

func TestWellFormedRejectsLookAlikes(t *testing.T) {
	secret, _, _ := NewKey()
	flip := func(i int) string {
		b := []byte(secret)
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		return string(b)
	}
	for name, s := range map[string]string{
		"empty":            "",
		"prefix only":      KeyPrefix,
		"other prefix":     "sk_" + secret[len(KeyPrefix):],
		"random changed":   flip(len(KeyPrefix) + 3),
		"checksum changed": flip(len(secret) - 1),
		"too long":         secret + "a",
		"not base62":       secret[:10] + "-" + secret[11:],
	} {
		if WellFormed(s) {
			t.Errorf("%s: %q accepted", name, s)
		}
	}
}
