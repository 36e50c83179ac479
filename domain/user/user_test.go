package user

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func TestNamesAreShortASCIIWords(t *testing.T) {
	for _, ok := range []string{"a", "shop.front-1_x", strings.Repeat("n", 64)} {
		if !ValidName(ok) {
			t.Errorf("%q is a valid name", ok)
		}
	}
	for _, bad := range []string{"", strings.Repeat("n", 65), "a b", "\x00", "ä", "a:b", "a\nb", "x'--"} {
		if ValidName(bad) {
			t.Errorf("%q is not a valid name", bad)
		}
		if _, err := New(bad, Reader, Credentials{Key: "k"}); errs.KindOf(err) != errs.Invalid {
			t.Errorf("New(%q): want invalid, got %v", bad, err)
		}
	}
}

func TestRolesCoverTheWeakerOnes(t *testing.T) {
	want := map[[2]Role]bool{
		{Admin, Admin}: true, {Admin, Operator}: true, {Admin, Reader}: true,
		{Operator, Admin}: false, {Operator, Operator}: true, {Operator, Reader}: true,
		{Reader, Admin}: false, {Reader, Operator}: false, {Reader, Reader}: true,
	}
	for pair, covers := range want {
		if pair[0].Covers(pair[1]) != covers {
			t.Errorf("%s covers %s: want %v", pair[0], pair[1], covers)
		}
	}
	if Role("root").Covers(Reader) {
		t.Error("an unknown role covers nothing")
	}
	if _, err := ParseRole("root"); errs.KindOf(err) != errs.Invalid {
		t.Errorf("unknown role: %v", err)
	}
	if _, err := New("x", "root", Credentials{Key: "k"}); errs.KindOf(err) != errs.Invalid {
		t.Errorf("a user with an unknown role: %v", err)
	}
}

func TestDigestIsOnWithBothAlgorithmsAndOffWithout(t *testing.T) {
	u, err := New("shop", Operator, Credentials{Key: "k1"})
	if err != nil || !u.Enabled() || u.Role() != Operator || u.Digest() {
		t.Fatalf("new user without Digest: %v %+v", err, u)
	}
	u.RotateKey(Credentials{Key: "k2", DigestSHA256: "s", DigestMD5: "m"})
	if !u.Digest() || u.Credentials().Key != "k2" {
		t.Fatal("a new key with Digest turns it on")
	}
	u.DisableDigest()
	if u.Digest() || u.Credentials().Key != "k2" {
		t.Fatal("turning Digest off keeps the key")
	}
	if (Credentials{Key: "k", DigestSHA256: "s"}).Digest() {
		t.Fatal("Digest needs both algorithms")
	}
}

// The example of RFC 7616 section 3.9.1.
func TestDigestResponsesFollowRFC7616(t *testing.T) {
	d := DigestRequest{
		Method: "GET", URI: "/dir/index.html", NC: "00000001",
		Nonce:  "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
		CNonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
	}
	for alg, want := range map[DigestAlgorithm]string{
		DigestMD5:    "8ca523f5e9506fed4657c9700eebdbec",
		DigestSHA256: "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1",
	} {
		d.Algorithm = alg
		if got := d.Expected(alg.Hash("Mufasa:http-auth@example.org:Circle of Life")); got != want {
			t.Errorf("%s: got %s, want %s", alg, got, want)
		}
	}
}

func TestDigestChecksAgainstHA1(t *testing.T) {
	for _, alg := range DigestAlgorithms {
		d := DigestRequest{Algorithm: alg, Method: "GET", URI: "/api/warehouses", Nonce: "n", NC: "00000001", CNonce: "c"}
		ha1 := DigestHA1(alg, "shop", "the-key-0123456789")
		d.Response = strings.ToUpper(d.Expected(ha1))
		if !d.Check(ha1) {
			t.Errorf("%s: the right response is accepted, in either case", alg)
		}
		d.Response = d.Expected(DigestHA1(alg, "shop", "wrong-key-0123456789"))
		if d.Check(ha1) {
			t.Errorf("%s: a wrong key is refused", alg)
		}
	}
	md := md5.Sum([]byte("shop:Inventory REST-API:k"))
	sh := sha256.Sum256([]byte("shop:Inventory REST-API:k"))
	if DigestHA1(DigestMD5, "shop", "k") != hex.EncodeToString(md[:]) || DigestHA1(DigestSHA256, "shop", "k") != hex.EncodeToString(sh[:]) {
		t.Fatal("HA1 is H(name:realm:key) per algorithm")
	}
	if a, ok := ParseDigestAlgorithm("sha-256"); !ok || a != DigestSHA256 {
		t.Error("algorithm names are case-insensitive")
	}
	if _, ok := ParseDigestAlgorithm("SHA-512-256"); ok {
		t.Error("only SHA-256 and MD5 are offered")
	}
}

func ptr[T any](v T) *T { return &v }

func TestTheLastEnabledAdminStaysAnEnabledAdmin(t *testing.T) {
	admin := func() *User { u, _ := New("root", Admin, Credentials{Key: "k"}); return u }
	last := Admins{EnabledAdmins: 1}
	for name, change := range map[string]func(*User) error{
		"demoted":  func(u *User) error { return last.Change(u, ptr(Operator), nil) },
		"disabled": func(u *User) error { return last.Change(u, nil, ptr(false)) },
		"both":     func(u *User) error { return last.Change(u, ptr(Reader), ptr(false)) },
		"deleted":  func(u *User) error { return last.CheckRemovable(u) },
	} {
		u := admin()
		if err := change(u); err != ErrLastAdmin {
			t.Errorf("the last admin %s: %v", name, err)
		}
		if u.Role() != Admin || !u.Enabled() {
			t.Errorf("a refused change (%s) changes nothing", name)
		}
	}
	u := admin()
	if err := last.Change(u, ptr(Admin), ptr(true)); err != nil {
		t.Errorf("keeping the last admin an enabled admin is fine: %v", err)
	}
	two := Admins{EnabledAdmins: 2}
	if err := two.Change(u, ptr(Reader), nil); err != nil || u.Role() != Reader {
		t.Errorf("with another admin left, an admin may be demoted: %v", err)
	}
	if err := last.CheckRemovable(u); err != nil {
		t.Errorf("a reader may always go: %v", err)
	}
	off := UnmarshalFromDatabase(3, "off", Admin, false, Credentials{})
	if err := last.CheckRemovable(off); err != nil {
		t.Errorf("a disabled admin is not the last enabled one: %v", err)
	}
	if err := two.Change(u, ptr(Role("root")), ptr(false)); errs.KindOf(err) != errs.Invalid || !u.Enabled() {
		t.Errorf("an unknown role is refused whole: %v", err)
	}
}
