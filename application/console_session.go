package application

import (
	"context"
	"crypto/rand"

	"github.com/shopstock/inventory/domain/errs"

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
// the user is disabled. The session belongs to the user's id and current
// credential, not to the name. Expired sessions are cleared on the way.
func (a *App) SignIn(ctx context.Context, name, key string) (token string, err error) {
	u, err := a.authenticatedUser(ctx, name, key)
	if err != nil || u == nil {
		return "", err
	}
	token = rand.Text() + rand.Text()
	csrf := rand.Text() + rand.Text()
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		now := a.clock.Now()
		if _, err := s.Sessions().PurgeExpired(ctx, session.IdleSince(now), session.SignedInSince(now)); err != nil {
			return err
		}
		return s.Sessions().Add(ctx, session.New(token, u, csrf, now))
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// SessionUser tells whose session the token names, nil when it names none
// or the session has ended: idle or too old, its user deleted or disabled,
// or the user's key rotated since the sign-in. A session found ended is
// deleted. The user is read afresh by id, so a change of role applies to
// open sessions at once, and a user created later under the same name is
// somebody else. A use is recorded, which keeps the session from going
// idle.
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
		u, err = s.APIUsers().Get(ctx, sess.UserID())
		if errs.KindOf(err) == errs.NotFound {
			u, err = nil, nil
		}
		return err
	})
	if err != nil || sess == nil {
		return nil, err
	}
	now := a.clock.Now()
	if !sess.ValidFor(u, now) {
		return nil, a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
			return s.Sessions().Delete(ctx, sess.TokenHash())
		})
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

// ConsoleFormKey is the key that signs the console's sign-in forms. It
// derives from the service's secret: the same for every instance that has
// the secret, so that a form one instance served is accepted by another,
// and out of reach of whoever has only a copy of the database.
func (a *App) ConsoleFormKey(context.Context) ([]byte, error) {
	return a.secrets.Key("console form"), nil
}
