package application

import (
	"context"
	"crypto/rand"

	"github.com/shopstock/inventory/domain/session"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// ConsoleUser is who a console session belongs to, as of the request.
type ConsoleUser struct {
	Name string
	Role user.Role
	// CSRFToken guards the session's forms.
	CSRFToken string
}

// SignIn checks an API user's name and key as the API's authentication
// does (Authenticate) and starts a console session. It returns the
// session's token for the cookie, or "" when the credentials are wrong or
// the user is disabled. Sessions idle for longer than session.IdleTimeout
// are cleared on the way.
func (a *App) SignIn(ctx context.Context, name, key string) (token string, err error) {
	p, err := a.Authenticate(ctx, name, key)
	if err != nil || p == nil {
		return "", err
	}
	name = p.Name
	token = rand.Text() + rand.Text()
	csrf := rand.Text() + rand.Text()
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		now := a.clock.Now()
		if _, err := s.Sessions().PurgeIdle(ctx, session.IdleSince(now)); err != nil {
			return err
		}
		return s.Sessions().Add(ctx, session.New(token, name, csrf, now))
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// SessionUser tells whose session the token names, nil when it names none,
// has expired, or its user no longer exists or is disabled. The role is
// read afresh, so a change of role applies to open sessions at once. A use
// is recorded, which keeps the session from going idle.
func (a *App) SessionUser(ctx context.Context, token string) (*ConsoleUser, error) {
	if token == "" {
		return nil, nil
	}
	var (
		sess *session.Session
		u    *user.User
	)
	err := a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		var err error
		if sess, err = s.Sessions().Get(ctx, session.HashToken(token)); err != nil || sess == nil {
			return err
		}
		u, err = s.APIUsers().FindByName(ctx, sess.User())
		return err
	})
	now := a.clock.Now()
	if err != nil || sess == nil || u == nil || !u.Enabled() || sess.Expired(now) {
		return nil, err
	}
	if sess.Touch(now) {
		if err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
			return s.Sessions().Touch(ctx, sess)
		}); err != nil {
			return nil, err
		}
	}
	return &ConsoleUser{Name: u.Name(), Role: u.Role(), CSRFToken: sess.CSRFToken()}, nil
}

// SignOut ends the session the token names.
func (a *App) SignOut(ctx context.Context, token string) error {
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		return s.Sessions().Delete(ctx, session.HashToken(token))
	})
}
