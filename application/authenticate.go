package application

import (
	"context"

	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// Principal is who a request authenticated as.
type Principal struct {
	Name string
	Role user.Role
}

// Authenticate checks a Basic name and key. It returns nil (and no error)
// for an unknown name, a wrong key or a disabled user alike. Credentials are
// read from storage on every call, so a rotation or a disabling takes effect
// at once on every instance.
func (a *App) Authenticate(ctx context.Context, name, key string) (*Principal, error) {
	u, err := a.authenticatedUser(ctx, name, key)
	if err != nil || u == nil {
		return nil, err
	}
	return &Principal{Name: u.Name(), Role: u.Role()}, nil
}

// authenticatedUser is the enabled user whose name and key these are, nil
// when there is none.
func (a *App) authenticatedUser(ctx context.Context, name, key string) (*user.User, error) {
	u, err := a.lookUpUser(ctx, name)
	if err != nil {
		return nil, err
	}
	if !a.secrets.CheckKey(u.Name(), u.Credentials(), key) || !u.Enabled() {
		return nil, nil
	}
	return u, nil
}

// UserExists tells whether a user of that name exists, for a log that may
// name a known user but nothing else a client typed into the name field
// (which may be a key).
func (a *App) UserExists(ctx context.Context, name string) (bool, error) {
	if !user.ValidName(name) {
		return false, nil
	}
	var u *user.User
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		var err error
		u, err = s.APIUsers().FindByName(ctx, name)
		return err
	})
	return u != nil, err
}

// lookUpUser returns the user of that name, or the stand-in a.unknownUser.
// A name that no user can have is not looked up at all.
func (a *App) lookUpUser(ctx context.Context, name string) (*user.User, error) {
	if !user.ValidName(name) {
		return a.unknownUser()
	}
	var u *user.User
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		var err error
		u, err = s.APIUsers().FindByName(ctx, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	if u == nil {
		return a.unknownUser()
	}
	return u, nil
}
