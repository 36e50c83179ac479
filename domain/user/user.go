// Package user holds the API user aggregate: who may call the API, in which
// role, and what is kept to check a key (hashes only, never the key).
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

// Roles lists the roles from most to least powerful.
var Roles = []Role{Admin, Operator, Reader}

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

// Credentials is what is stored to check a key: SHA-256 of the key for Basic,
// and H(name:realm:key) per Digest algorithm (RFC 7616 calls it the userhash-
// less A1 hash), which Digest cannot do without. None of them gives the key.
type Credentials struct {
	KeyHash      string
	DigestSHA256 string // empty for users whose key predates Digest support
	DigestMD5    string
}

// CredentialsFor derives the stored hashes of key for the user name.
func CredentialsFor(name, key string) Credentials {
	return Credentials{
		KeyHash:      HashKey(key),
		DigestSHA256: DigestHA1(DigestSHA256, name, key),
		DigestMD5:    DigestHA1(DigestMD5, name, key),
	}
}

// HashKey is the stored form of a key for Basic. Keys are long random
// strings, so one SHA-256 is enough and keeps per-request checks cheap.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

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

// New makes an enabled user with the given key.
func New(name string, role Role, key string) (*User, error) {
	if !ValidName(name) {
		return nil, errs.InvalidFields(errs.FieldError{Property: "name",
			Message: "must be 1 to 64 characters of ASCII letters, digits, '.', '_' or '-'"})
	}
	if role.rank() == 0 {
		_, err := ParseRole(string(role))
		return nil, err
	}
	return &User{name: name, role: role, enabled: true, creds: CredentialsFor(name, key)}, nil
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

// RotateKey replaces the key: the old one stops working once this is saved.
func (u *User) RotateKey(key string) { u.creds = CredentialsFor(u.name, key) }

// CheckKey tells whether key is the user's key, in constant time.
func (u *User) CheckKey(key string) bool {
	return subtle.ConstantTimeCompare([]byte(u.creds.KeyHash), []byte(HashKey(key))) == 1
}

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

// HA1 returns the stored H(name:realm:key) for alg; empty when none is
// stored (the user's key predates Digest support).
func (c Credentials) HA1(alg DigestAlgorithm) string {
	if alg == DigestMD5 {
		return c.DigestMD5
	}
	return c.DigestSHA256
}

// Expected is the response a client that knows the key sends (RFC 7616
// section 3.4.1, qop=auth).
func (d DigestRequest) Expected(ha1 string) string {
	ha2 := d.Algorithm.Hash(d.Method + ":" + d.URI)
	return d.Algorithm.Hash(ha1 + ":" + d.Nonce + ":" + d.NC + ":" + d.CNonce + ":auth:" + ha2)
}

// CheckDigest tells whether d proves the user's key, in constant time.
// Without a stored hash for the algorithm it fails, after the same work.
func (u *User) CheckDigest(d DigestRequest) bool {
	ha1 := u.creds.HA1(d.Algorithm)
	stored := ha1 != ""
	if !stored {
		ha1 = d.Algorithm.Hash("")
	}
	ok := subtle.ConstantTimeCompare([]byte(d.Expected(ha1)), []byte(strings.ToLower(d.Response))) == 1
	return ok && stored
}
