package httpx

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"strings"
	"time"
)

// NewSecret returns 128 random bits in hex.
func NewSecret() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// HashSecret returns the hex SHA-256 of a token or invite.
func HashSecret(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID returns an id for a game, an account or a seek: 16 lowercase letters and digits.
func NewID() string {
	var b [10]byte
	rand.Read(b[:])
	return idEncoding.EncodeToString(b[:])
}

// ValidID reports whether id could be one that NewID made.
func ValidID(id string) bool {
	if len(id) != 16 {
		return false
	}
	return strings.Trim(id, "abcdefghijklmnopqrstuvwxyz234567") == ""
}

// SetDefault sets *v to def when it is zero or less.
func SetDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// DerivedID returns an id that NewID could have made, derived from text:
// the same text always gives the same id (e.g. the rematch of a game).
func DerivedID(text string) string {
	h := sha256.Sum256([]byte(text))
	return idEncoding.EncodeToString(h[:10])
}
