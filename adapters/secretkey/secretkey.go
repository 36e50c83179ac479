// Package secretkey holds the service's secret (INVENTORY_SECRET_KEY) and
// does with it what ports.Secrets promises: it makes, checks and re-seals
// what storage keeps to check API keys, seals the webhooks' signing
// secrets, and derives the keys that sign Digest nonces and console forms.
//
// What storage keeps per user:
//
//   - for Basic (and the console's sign-in), AES-256-GCM over a random
//     16-byte salt and SHA-256(salt | SHA-256(key)): checking a key opens it
//     and compares;
//   - for Digest, AES-256-GCM over H(name:realm:key) per algorithm, which
//     Digest needs back to check a response.
//
// Each sealed value is "s1.<key id>.<base64url(nonce | ciphertext)>": the key
// id (derived from the secret, it tells nothing of it) names the secret it
// was sealed with, so that a rotation can tell old from new. The user's name
// and the value's kind are authenticated with it, so a value copied into
// another user's row, or into another column, does not open.
package secretkey

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/domain/webhook"
)

// MinLength is the fewest random bytes a secret has.
const MinLength = 32

// Parse reads a secret written as hex or base64 (standard or URL alphabet,
// padded or not). It must hold at least MinLength bytes.
func Parse(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	// Hex first: a string of hex digits may read as base64 too.
	b, err := hex.DecodeString(s)
	if err != nil {
		b, err = decodeBase64(s)
	}
	if err != nil {
		return nil, errors.New("want at least 32 random bytes written as base64 or hex, got neither")
	}
	if len(b) < MinLength {
		return nil, fmt.Errorf("want at least %d random bytes written as base64 or hex, got %d bytes", MinLength, len(b))
	}
	return b, nil
}

func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// Generate makes a new random secret of 32 bytes, written as base64.
func Generate() string {
	b := make([]byte, MinLength)
	_, _ = rand.Read(b) // crypto/rand never fails
	return base64.StdEncoding.EncodeToString(b)
}

// derive is the key for purpose under secret (HKDF-SHA-256): every use of
// the secret gets a key of its own.
func derive(secret []byte, purpose string) []byte {
	k, err := hkdf.Key(sha256.New, secret, nil, "inventory "+purpose, 32)
	if err != nil {
		panic(err) // only for lengths HKDF cannot give
	}
	return k
}

// sealer seals under one secret.
type sealer struct {
	id     string
	aead   cipher.AEAD
	secret []byte
}

func newSealer(secret []byte) (*sealer, error) {
	block, err := aes.NewCipher(derive(secret, "credential seal"))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{id: hex.EncodeToString(derive(secret, "key id")[:6]), aead: aead, secret: secret}, nil
}

const format = "s1"

func (s *sealer) seal(plain, ad []byte) string {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return format + "." + s.id + "." + base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, ad))
}

// Keyring is the current secret, and while a rotation is under way the
// previous one, whose values it opens and seals again under the current.
type Keyring struct {
	current  *sealer
	previous *sealer // nil: none
}

// New makes the keyring of secret; previous (nil: none) is the secret the
// stored values may still be sealed with.
func New(secret, previous []byte) (*Keyring, error) {
	if len(secret) < MinLength || previous != nil && len(previous) < MinLength {
		return nil, fmt.Errorf("secretkey: a secret has at least %d bytes", MinLength)
	}
	cur, err := newSealer(secret)
	if err != nil {
		return nil, err
	}
	k := &Keyring{current: cur}
	if previous != nil {
		if k.previous, err = newSealer(previous); err != nil {
			return nil, err
		}
		if k.previous.id == cur.id {
			k.previous = nil
		}
	}
	return k, nil
}

// ErrOtherSecret is why a stored value does not open: it was sealed with a
// secret the keyring does not have.
var ErrOtherSecret = errors.New("sealed with another secret")

// open opens a sealed value with whichever secret it names.
func (k *Keyring) open(sealed string, ad []byte) ([]byte, error) {
	parts := strings.SplitN(sealed, ".", 3)
	if len(parts) != 3 || parts[0] != format {
		return nil, errors.New("not a sealed value")
	}
	var s *sealer
	switch {
	case parts[1] == k.current.id:
		s = k.current
	case k.previous != nil && parts[1] == k.previous.id:
		s = k.previous
	default:
		return nil, ErrOtherSecret
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[2])
	n := s.aead.NonceSize()
	if err != nil || len(raw) < n {
		return nil, errors.New("not a sealed value")
	}
	return s.aead.Open(nil, raw[:n], raw[n:], ad)
}

// sealedBy tells the key id a sealed value names ("" when it is none).
func sealedBy(sealed string) string {
	parts := strings.SplitN(sealed, ".", 3)
	if len(parts) != 3 || parts[0] != format {
		return ""
	}
	return parts[1]
}

// Kinds of stored value; each is authenticated with the value.
const (
	kindKey = "key"
)

func kindDigest(alg user.DigestAlgorithm) string { return "digest " + string(alg) }

// associated binds a sealed value to its kind and its user's name.
func associated(kind, name string) []byte {
	return []byte("inventory api user credential\x00" + kind + "\x00" + name)
}

const saltLength = 16

// keyCheck is SHA-256(salt | keyHash), keyHash being SHA-256 of the key:
// the salt keeps one table of guesses from serving every user.
func keyCheck(salt, keyHash []byte) []byte {
	h := sha256.New()
	h.Write(salt)
	h.Write(keyHash)
	return h.Sum(nil)
}

func (k *Keyring) sealKeyHash(name string, keyHash []byte) string {
	plain := make([]byte, saltLength, saltLength+sha256.Size)
	_, _ = rand.Read(plain)
	plain = append(plain, keyCheck(plain, keyHash)...)
	return k.current.seal(plain, associated(kindKey, name))
}

// Credentials makes what storage keeps for name's key.
func (k *Keyring) Credentials(name, key string, digest bool) (user.Credentials, error) {
	sum := sha256.Sum256([]byte(key))
	c := user.Credentials{Key: k.sealKeyHash(name, sum[:])}
	if digest {
		c.DigestSHA256 = k.current.seal([]byte(user.DigestHA1(user.DigestSHA256, name, key)), associated(kindDigest(user.DigestSHA256), name))
		c.DigestMD5 = k.current.seal([]byte(user.DigestHA1(user.DigestMD5, name, key)), associated(kindDigest(user.DigestMD5), name))
	}
	return c, nil
}

// CheckKey tells whether key is the key c was made for.
func (k *Keyring) CheckKey(name string, c user.Credentials, key string) bool {
	plain, err := k.open(c.Key, associated(kindKey, name))
	if err != nil || len(plain) != saltLength+sha256.Size {
		return false
	}
	sum := sha256.Sum256([]byte(key))
	return subtle.ConstantTimeCompare(plain[saltLength:], keyCheck(plain[:saltLength], sum[:])) == 1
}

// DigestHA1 opens H(name:realm:key) for alg.
func (k *Keyring) DigestHA1(name string, c user.Credentials, alg user.DigestAlgorithm) (string, bool) {
	sealed := c.DigestSHA256
	if alg == user.DigestMD5 {
		sealed = c.DigestMD5
	}
	if sealed == "" {
		return "", false
	}
	plain, err := k.open(sealed, associated(kindDigest(alg), name))
	if err != nil {
		return "", false
	}
	return string(plain), true
}

// Reseal brings c under the current secret: a bare SHA-256 of the key kept
// from before is salted and sealed, values of the previous secret are sealed
// again, and Digest values that are not sealed are dropped (they would open
// Digest to whoever has a copy of storage).
func (k *Keyring) Reseal(name string, c user.Credentials) (user.Credentials, bool, error) {
	out, changed := c, false
	if c.Key == "" && c.LegacyKeyHash != "" {
		keyHash, err := hex.DecodeString(c.LegacyKeyHash)
		if err != nil || len(keyHash) != sha256.Size {
			return c, false, errors.New("a stored key hash is not a SHA-256")
		}
		out.Key, out.LegacyKeyHash, changed = k.sealKeyHash(name, keyHash), "", true
	} else if c.LegacyKeyHash != "" {
		out.LegacyKeyHash, changed = "", true
	}
	type field struct {
		value *string
		kind  string
	}
	for _, f := range []field{{&out.Key, kindKey},
		{&out.DigestSHA256, kindDigest(user.DigestSHA256)}, {&out.DigestMD5, kindDigest(user.DigestMD5)}} {
		if *f.value == "" {
			continue
		}
		id := sealedBy(*f.value)
		switch {
		case id == "" && f.kind != kindKey:
			*f.value, changed = "", true
			continue
		case id == k.current.id:
			continue
		}
		plain, err := k.open(*f.value, associated(f.kind, name))
		if err != nil {
			return c, false, fmt.Errorf("its stored %s: %w", f.kind, err)
		}
		*f.value, changed = k.current.seal(plain, associated(f.kind, name)), true
	}
	if out.DigestSHA256 == "" || out.DigestMD5 == "" {
		// Digest is on with both algorithms or off.
		changed = changed || out.DigestSHA256 != out.DigestMD5
		out.DigestSHA256, out.DigestMD5 = "", ""
	}
	return out, changed, nil
}

// webhookSecretAD is authenticated with every sealed webhook signing
// secret, so that no user's sealed value passes for one, nor one for a
// user's.
var webhookSecretAD = []byte("inventory webhook signing secret")

// SealWebhookSecret seals a webhook's signing secret under the current
// secret.
func (k *Keyring) SealWebhookSecret(secret string) string {
	return k.current.seal([]byte(secret), webhookSecretAD)
}

// OpenWebhookSecret opens a sealed signing secret; one kept in the clear
// from before is returned as it is.
func (k *Keyring) OpenWebhookSecret(stored string) (string, error) {
	if sealedBy(stored) == "" {
		if !strings.HasPrefix(stored, webhook.SecretPrefix) {
			return "", errors.New("a stored webhook secret is neither sealed nor a secret")
		}
		return stored, nil
	}
	plain, err := k.open(stored, webhookSecretAD)
	if err != nil {
		return "", fmt.Errorf("its stored signing secret: %w", err)
	}
	return string(plain), nil
}

// ResealWebhookSecret seals a signing secret kept in the clear, or sealed
// with the previous secret, under the current one.
func (k *Keyring) ResealWebhookSecret(stored string) (string, bool, error) {
	if sealedBy(stored) == k.current.id {
		return stored, false, nil
	}
	plain, err := k.OpenWebhookSecret(stored)
	if err != nil {
		return stored, false, err
	}
	return k.SealWebhookSecret(plain), true, nil
}

// Key derives the key for purpose from the current secret.
func (k *Keyring) Key(purpose string) []byte { return derive(k.current.secret, purpose) }
