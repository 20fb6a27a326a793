// Package auth provides API keys: their format, hashing and the middleware
// that authenticates requests with them.
package auth

import (
	"context"
	"time"

	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"hash/crc32"
	"math/big"
	"signals/internal/model"
	"signals/internal/store"
	"strings"
)

// Key format: "sig_" + 32 base62 characters of randomness (about 190 bits) +
// a 6-character base62 CRC-32 of them, so secret scanners can recognise a
// leaked key and reject look-alikes without asking the service.
const (
	KeyPrefix   = "sig_"
	randomChars = 32
	checksumLen = 6
	keyLen      = len(KeyPrefix) + randomChars + checksumLen
	base62      = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	hintChars   = 6
)

// NewKey returns a fresh secret, the non-secret hint that identifies it to a
// person, and the hash to store.
func NewKey() (secret, hint string, hash []byte) {
	random := make([]byte, randomChars)
	for i := range random {
		random[i] = base62[randIndex()]
	}
	secret = KeyPrefix + string(random) + checksum(string(random))
	return secret, Hint(secret), Hash(secret)
}

// NewID returns a random public identifier with the given prefix.
func NewID(prefix string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func randIndex() int64 {
	n, err := rand.Int(rand.Reader, big.NewInt(int64(len(base62))))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return n.Int64()
}

func checksum(random string) string {
	c := crc32.ChecksumIEEE([]byte(random))
	out := make([]byte, checksumLen)
	for i := checksumLen - 1; i >= 0; i-- {
		out[i] = base62[c%62]
		c /= 62
	}
	return string(out)
}

// WellFormed reports whether s has the key format and a valid checksum. It
// looks at no secret state, so it may run before any store lookup.
func WellFormed(s string) bool {
	if len(s) != keyLen || !strings.HasPrefix(s, KeyPrefix) {
		return false
	}
	body := s[len(KeyPrefix):]
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(base62, body[i]) < 0 {
			return false
		}
	}
	random := body[:randomChars]
	return subtle.ConstantTimeCompare([]byte(checksum(random)), []byte(body[randomChars:])) == 1
}

// Hash is what the store keeps of a key. Keys carry 190 bits of randomness,
// so a fast hash is enough: there is nothing to brute-force.
func Hash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// Equal compares two hashes in constant time.
func Equal(a, b []byte) bool { return subtle.ConstantTimeCompare(a, b) == 1 }

// Hint is the start of a key shown in key lists.
func Hint(secret string) string {
	return secret[:len(KeyPrefix)+hintChars] + "…"
}

// Issue creates a key for an account and returns its secret, which is shown
// once and never stored.
func Issue(ctx context.Context, st store.Accounts, accountID int64, name string, now time.Time) (string, model.APIKey, error) {
	secret, hint, hash := NewKey()
	k := model.APIKey{ID: NewID("key_"), AccountID: accountID, Name: name, Hint: hint, CreatedAt: now.UTC()}
	if err := st.CreateKey(ctx, k, hash); err != nil {
		return "", k, err
	}
	return secret, k, nil
}
