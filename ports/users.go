package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/user"
)

// UserFields are the list properties of API users.
var UserFields = ListFields{
	"user.id": IntField, "user.name": TextField, "user.role": TextField, "user.enabled": BoolField,
}

// APIUserRepository stores API users. Inside Write, Get and FindByName lock
// the row.
type APIUserRepository interface {
	// Add stores u and assigns its id; a taken name is an Invalid error.
	Add(ctx context.Context, u *user.User) error
	Get(ctx context.Context, id int64) (*user.User, error)
	FindByName(ctx context.Context, name string) (*user.User, error) // nil when unknown
	Save(ctx context.Context, u *user.User) error
	Delete(ctx context.Context, id int64) error
	List(ctx context.Context, q ListQuery) (Page[*user.User], error)
	Count(ctx context.Context) (int, error)
	// EnabledAdmins counts the enabled admins. Inside Write it locks them, so
	// that two writers cannot each take away "the other" last admin.
	EnabledAdmins(ctx context.Context) (int, error)
}

// DigestNonceStore keeps what HTTP Digest needs shared by every instance.
type DigestNonceStore interface {
	// Use records that userName used nonce with count nc and tells whether
	// nc is higher than every count userName used with it before (false: a
	// replay). Counts are per user: a nonce a client received may be used
	// by another user too, and one user's counts say nothing of another's.
	Use(ctx context.Context, nonce, userName string, nc int64, issuedAt time.Time) (bool, error)
	// Purge forgets the counts of nonces issued before t.
	Purge(ctx context.Context, before time.Time) error
}
