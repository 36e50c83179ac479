// Package user holds the API user aggregate: who may call the API, in which
// role, and what is kept to check a key (never the key).
package user

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"

	"github.com/shopstock/inventory/domain/errs"
)

// Role is what a user may do.
type Role string

const (
	// Admin may do everything, including managing users and webhooks.
	Admin Role = "admin"
	// Operator may do everything but manage users and webhooks.
	Operator Role = "operator"
	// Reader may only read (GET) under /api, but not users and webhooks.
	Reader Role = "reader"
)

func (r Role) rank() int {
	switch r {
	case Admin:
		return 3
	case Operator:
		return 2
	case Reader:
		return 1
	}
	return 0
}

// Covers tells whether a user in role r may do what needs role need.
func (r Role) Covers(need Role) bool { return r.rank() > 0 && r.rank() >= need.rank() }

// ParseRole reads a role by its name.
func ParseRole(s string) (Role, error) {
	r := Role(s)
	if r.rank() == 0 {
		return "", errs.InvalidFields(errs.FieldError{Property: "role", Message: "must be one of admin, operator, reader"})
	}
	return r, nil
}

// MaxNameLength bounds a user name, so that nothing longer is ever looked up.
const MaxNameLength = 64

// ValidName tells whether s is a possible user name: 1..64 ASCII letters,
// digits, '.', '_' or '-'. Credentials naming anything else are refused
// before storage is asked.
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > MaxNameLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Realm is the protection space of the API. Digest's stored hashes depend on
// it, so changing it invalidates them.
const Realm = "Inventory REST-API"

// Credentials is what storage keeps to check a user's key. The domain does
// not look inside: the values are made and read through ports.Secrets,
// under a secret that storage does not hold.
type Credentials struct {
	// Key checks the key, for Basic and the console's sign-in.
	Key string
	// DigestSHA256 and DigestMD5 give H(name:realm:key) back per Digest
	// algorithm; both empty: Digest is off for the user.
	DigestSHA256 string
	DigestMD5    string
	// LegacyKeyHash is a bare SHA-256 of the key, as stored before there
	// was a secret; it is sealed into Key at the first start with one.
	LegacyKeyHash string
}

// Digest tells whether the credentials let the user use Digest.
func (c Credentials) Digest() bool { return c.DigestSHA256 != "" && c.DigestMD5 != "" }

// MinKeyLength is the shortest key the service hands out or accepts from the
// configuration.
const MinKeyLength = 16

// User is an API user.
type User struct {
	id      int64
	name    string
	role    Role
	enabled bool
	creds   Credentials
}

// New makes an enabled user whose key creds check.
func New(name string, role Role, creds Credentials) (*User, error) {
	if !ValidName(name) {
		return nil, errs.InvalidFields(errs.FieldError{Property: "name",
			Message: "must be 1 to 64 characters of ASCII letters, digits, '.', '_' or '-'"})
	}
	if role.rank() == 0 {
		_, err := ParseRole(string(role))
		return nil, err
	}
	return &User{name: name, role: role, enabled: true, creds: creds}, nil
}

// UnmarshalFromDatabase rebuilds a stored user.
func UnmarshalFromDatabase(id int64, name string, role Role, enabled bool, creds Credentials) *User {
	return &User{id: id, name: name, role: role, enabled: enabled, creds: creds}
}

// Assign records the id storage gave the user.
func (u *User) Assign(id int64) { u.id = id }

func (u *User) ID() int64                { return u.id }
func (u *User) Name() string             { return u.name }
func (u *User) Role() Role               { return u.role }
func (u *User) Enabled() bool            { return u.enabled }
func (u *User) Credentials() Credentials { return u.creds }

// isEnabledAdmin tells whether the user counts for the last-admin rule.
func (u *User) isEnabledAdmin() bool { return u.enabled && u.role == Admin }

// Digest tells whether the user may authenticate with HTTP Digest.
func (u *User) Digest() bool { return u.creds.Digest() }

// RotateKey replaces the credentials with those of a new key: the old key
// stops working once this is saved. What Digest checks is made from the
// key, so turning Digest on is a rotation too.
func (u *User) RotateKey(creds Credentials) { u.creds = creds }

// DisableDigest forgets what Digest checks; the key stays valid for Basic.
func (u *User) DisableDigest() { u.creds.DigestSHA256, u.creds.DigestMD5 = "", "" }

// ErrLastAdmin is why the last enabled admin stays an enabled admin.
var ErrLastAdmin = errs.Invalidf("the last enabled admin can be neither deleted, disabled nor demoted").Breaks("last_admin")

// Admins is the domain service for the rule that needs all users: at least
// one enabled admin remains. EnabledAdmins counts the enabled admins as
// stored, the user being changed included.
type Admins struct{ EnabledAdmins int }

// Change sets role and enabled (nil leaves either as it is), all or nothing.
func (a Admins) Change(u *User, role *Role, enabled *bool) error {
	newRole, newEnabled := u.role, u.enabled
	if role != nil {
		r, err := ParseRole(string(*role))
		if err != nil {
			return err
		}
		newRole = r
	}
	if enabled != nil {
		newEnabled = *enabled
	}
	if u.isEnabledAdmin() && !(newEnabled && newRole == Admin) && a.EnabledAdmins <= 1 {
		return ErrLastAdmin
	}
	u.role, u.enabled = newRole, newEnabled
	return nil
}

// CheckRemovable tells whether u may be deleted.
func (a Admins) CheckRemovable(u *User) error {
	if u.isEnabledAdmin() && a.EnabledAdmins <= 1 {
		return ErrLastAdmin
	}
	return nil
}

// DigestAlgorithm is a hash algorithm of HTTP Digest (RFC 7616).
type DigestAlgorithm string

const (
	DigestSHA256 DigestAlgorithm = "SHA-256"
	DigestMD5    DigestAlgorithm = "MD5"
)

// DigestAlgorithms lists the algorithms offered, strongest first.
var DigestAlgorithms = []DigestAlgorithm{DigestSHA256, DigestMD5}

// ParseDigestAlgorithm reads an algorithm name, case-insensitively.
func ParseDigestAlgorithm(s string) (DigestAlgorithm, bool) {
	switch strings.ToUpper(s) {
	case "SHA-256":
		return DigestSHA256, true
	case "MD5":
		return DigestMD5, true
	}
	return "", false
}

// Hash is H(data) of the algorithm, in lower-case hex.
func (a DigestAlgorithm) Hash(data string) string {
	if a == DigestMD5 {
		sum := md5.Sum([]byte(data))
		return hex.EncodeToString(sum[:])
	}
	sum := sha256.Sum256([]byte(data))
	return hex.EncodeToString(sum[:])
}

// DigestHA1 is H(name:realm:key), what Digest needs stored per user.
func DigestHA1(alg DigestAlgorithm, name, key string) string {
	return alg.Hash(name + ":" + Realm + ":" + key)
}

// DigestRequest is one Digest authorization with qop=auth.
type DigestRequest struct {
	Algorithm DigestAlgorithm
	Method    string
	URI       string
	Nonce     string
	NC        string // the nonce count as sent, 8 hex digits
	CNonce    string
	Response  string
}

// Expected is the response a client that knows the key sends (RFC 7616
// section 3.4.1, qop=auth).
func (d DigestRequest) Expected(ha1 string) string {
	ha2 := d.Algorithm.Hash(d.Method + ":" + d.URI)
	return d.Algorithm.Hash(ha1 + ":" + d.Nonce + ":" + d.NC + ":" + d.CNonce + ":auth:" + ha2)
}

// Check tells whether d proves the key whose H(name:realm:key) is
// ha1, in constant time.
func (d DigestRequest) Check(ha1 string) bool {
	return subtle.ConstantTimeCompare([]byte(d.Expected(ha1)), []byte(strings.ToLower(d.Response))) == 1
}
