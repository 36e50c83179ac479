package secretkey

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/user"
)

func secret(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

func keyring(t *testing.T, current, previous []byte) *Keyring {
	t.Helper()
	k, err := New(current, previous)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestASecretIsAtLeast32BytesOfHexOrBase64(t *testing.T) {
	raw := []byte("0123456789abcdef0123456789abcdef")
	for _, s := range []string{hex.EncodeToString(raw), strings.ToUpper(hex.EncodeToString(raw)),
		base64.StdEncoding.EncodeToString(raw), base64.RawURLEncoding.EncodeToString(raw), " " + base64.StdEncoding.EncodeToString(raw) + "\n"} {
		if b, err := Parse(s); err != nil || !bytes.Equal(b, raw) {
			t.Errorf("Parse(%q) = %q, %v", s, b, err)
		}
	}
	for _, s := range []string{"", "short", hex.EncodeToString(raw[:31]), base64.StdEncoding.EncodeToString(raw[:31]), "not base64 at all, not hex either!!"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
	if b, err := Parse(Generate()); err != nil || len(b) != 32 {
		t.Errorf("a generated secret: %d bytes, %v", len(b), err)
	}
	if _, err := New(raw[:31], nil); err == nil {
		t.Error("New takes a short secret")
	}
}

func TestWhatIsKeptHoldsNeitherTheKeyNorItsHashes(t *testing.T) {
	k := keyring(t, secret(1), nil)
	c, _ := k.Credentials("shop", "the-key-0123456789", true)
	sum := sha256.Sum256([]byte("the-key-0123456789"))
	for _, v := range []string{c.Key, c.DigestSHA256, c.DigestMD5} {
		if v == "" || strings.Contains(v, "the-key") || strings.Contains(v, hex.EncodeToString(sum[:])) ||
			strings.Contains(v, user.DigestHA1(user.DigestSHA256, "shop", "the-key-0123456789")) ||
			strings.Contains(v, user.DigestHA1(user.DigestMD5, "shop", "the-key-0123456789")) {
			t.Fatalf("kept %q", v)
		}
	}
	again, _ := k.Credentials("shop", "the-key-0123456789", true)
	if again.Key == c.Key || again.DigestSHA256 == c.DigestSHA256 {
		t.Fatal("the same key is kept the same way twice: salt and nonce are not fresh")
	}
	if !k.CheckKey("shop", c, "the-key-0123456789") || k.CheckKey("shop", c, "the-key-0123456788") {
		t.Fatal("the key checks, another does not")
	}
	for _, alg := range user.DigestAlgorithms {
		if ha1, ok := k.DigestHA1("shop", c, alg); !ok || ha1 != user.DigestHA1(alg, "shop", "the-key-0123456789") {
			t.Fatalf("%s: Digest gets H(name:realm:key) back: %q %v", alg, ha1, ok)
		}
	}
	basic, _ := k.Credentials("shop", "the-key-0123456789", false)
	if basic.Digest() {
		t.Fatal("Digest only when asked for")
	}
	if _, ok := k.DigestHA1("shop", basic, user.DigestSHA256); ok {
		t.Fatal("a user without Digest has no HA1")
	}
}

func TestAnotherSecretOpensNothing(t *testing.T) {
	c, _ := keyring(t, secret(1), nil).Credentials("shop", "the-key-0123456789", true)
	other := keyring(t, secret(2), nil)
	if other.CheckKey("shop", c, "the-key-0123456789") {
		t.Fatal("the right key checks under another secret")
	}
	if _, ok := other.DigestHA1("shop", c, user.DigestSHA256); ok {
		t.Fatal("another secret opens the Digest value")
	}
	if _, _, err := other.Reseal("shop", c); !errors.Is(err, ErrOtherSecret) {
		t.Fatalf("resealing another secret's values: %v", err)
	}
	if bytes.Equal(other.Key("digest nonce"), keyring(t, secret(1), nil).Key("digest nonce")) {
		t.Fatal("derived keys depend on the secret")
	}
}

func TestAValueOpensOnlyForItsUserAndKind(t *testing.T) {
	k := keyring(t, secret(1), nil)
	mine, _ := k.Credentials("reader", "readers-key-0123456789", true)
	moved := user.Credentials{Key: mine.Key, DigestSHA256: mine.DigestSHA256, DigestMD5: mine.DigestMD5}
	if k.CheckKey("admin", moved, "readers-key-0123456789") {
		t.Fatal("a check copied into another user's row lets its key in")
	}
	if _, ok := k.DigestHA1("admin", moved, user.DigestSHA256); ok {
		t.Fatal("a Digest value copied into another user's row opens")
	}
	swapped := user.Credentials{Key: mine.DigestSHA256, DigestSHA256: mine.DigestMD5, DigestMD5: mine.DigestSHA256}
	if _, ok := k.DigestHA1("reader", swapped, user.DigestSHA256); ok || k.CheckKey("reader", swapped, "readers-key-0123456789") {
		t.Fatal("a value moved to another column opens")
	}
}

func TestResealWrapsOldHashesDropsPlainDigestAndMovesToTheNewSecret(t *testing.T) {
	old := keyring(t, secret(1), nil)
	sum := sha256.Sum256([]byte("old-key-0123456789"))
	legacy := user.Credentials{LegacyKeyHash: hex.EncodeToString(sum[:]),
		DigestSHA256: user.DigestHA1(user.DigestSHA256, "shop", "old-key-0123456789"),
		DigestMD5:    user.DigestHA1(user.DigestMD5, "shop", "old-key-0123456789")}
	c, changed, err := old.Reseal("shop", legacy)
	if err != nil || !changed || c.LegacyKeyHash != "" || c.Digest() || c.DigestSHA256 != "" || c.DigestMD5 != "" {
		t.Fatalf("legacy: %+v %v %v", c, changed, err)
	}
	if !old.CheckKey("shop", c, "old-key-0123456789") {
		t.Fatal("the old key works after sealing")
	}
	if _, changed, _ := old.Reseal("shop", c); changed {
		t.Fatal("values of the current secret are left alone")
	}
	if forgotten, changed, err := old.Reseal("shop", user.Credentials{}); err != nil || changed || forgotten != (user.Credentials{}) {
		t.Fatalf("forgotten credentials stay forgotten, and stop nothing: %+v %v %v", forgotten, changed, err)
	}

	withDigest, _ := old.Credentials("till", "till-key-0123456789", true)
	rotated := keyring(t, secret(3), secret(1))
	for name, c := range map[string]user.Credentials{"shop": c, "till": withDigest} {
		next, changed, err := rotated.Reseal(name, c)
		if err != nil || !changed {
			t.Fatalf("%s: rotation: %v %v", name, changed, err)
		}
		after := keyring(t, secret(3), nil)
		key := map[string]string{"shop": "old-key-0123456789", "till": "till-key-0123456789"}[name]
		if !after.CheckKey(name, next, key) || old.CheckKey(name, next, key) || after.CheckKey(name, next, "wrong") {
			t.Fatalf("%s: the new secret alone checks the key, the old one no more", name)
		}
		if name == "till" {
			if ha1, ok := after.DigestHA1(name, next, user.DigestMD5); !ok || ha1 != user.DigestHA1(user.DigestMD5, "till", key) {
				t.Fatal("Digest survives the rotation")
			}
		}
	}
}

// A webhook's signing secret is sealed, opens only as a webhook secret and
// only under its secret, and moves to a new secret in a rotation; one kept
// in the clear from before opens as it is until it is sealed.
func TestAWebhookSecretIsSealedAndMovesWithARotation(t *testing.T) {
	const plain = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	k := keyring(t, secret(1), nil)
	sealed := k.SealWebhookSecret(plain)
	if strings.Contains(sealed, "whsec_") || strings.Contains(sealed, plain[6:]) {
		t.Fatalf("sealed: %s", sealed)
	}
	if got, err := k.OpenWebhookSecret(sealed); err != nil || got != plain {
		t.Fatalf("open: %q %v", got, err)
	}
	if k.CheckKey("x", user.Credentials{Key: sealed}, plain) {
		t.Fatal("a webhook secret passes for a user's key check")
	}
	if _, err := keyring(t, secret(2), nil).OpenWebhookSecret(sealed); err == nil {
		t.Fatal("another secret opens it")
	}
	if got, err := k.OpenWebhookSecret(plain); err != nil || got != plain {
		t.Fatalf("a clear secret from before: %q %v", got, err)
	}
	if _, err := k.OpenWebhookSecret("garbage"); err == nil {
		t.Fatal("a stored value that is neither opens")
	}
	rotating := keyring(t, secret(2), secret(1))
	moved, changed, err := rotating.ResealWebhookSecret(sealed)
	if err != nil || !changed {
		t.Fatalf("reseal: %v %v", changed, err)
	}
	if got, err := keyring(t, secret(2), nil).OpenWebhookSecret(moved); err != nil || got != plain {
		t.Fatalf("after the rotation: %q %v", got, err)
	}
	if _, changed, _ := rotating.ResealWebhookSecret(moved); changed {
		t.Fatal("a secret under the current secret is left as it is")
	}
}
