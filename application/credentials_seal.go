package application

import (
	"context"
	"fmt"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/domain/webhook"
	"github.com/shopstock/inventory/ports"
)

// SealCredentials brings what storage keeps to check every user's key, and
// every webhook's signing secret, under the current secret, in one
// transaction, and tells how many users and webhooks it changed: a bare
// SHA-256 of a key kept from before there was a secret is sealed (the key
// keeps working for Basic), Digest values kept unsealed are dropped (Digest
// is off until a new key is issued), a webhook secret kept in the clear is
// sealed, and during a rotation what the previous secret sealed is sealed
// anew. It fails, changing nothing, when a value was sealed with a secret
// it does not have. Every start runs it before serving.
func (a *App) SealCredentials(ctx context.Context) (changed int, err error) {
	if err := permit(ctx, access.ManageUsers); err != nil {
		return 0, err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		changed = 0
		repo := s.APIUsers()
		ids, err := allIDs(ctx, repo.List, (*user.User).ID)
		if err != nil {
			return err
		}
		for _, id := range ids {
			u, err := repo.Get(ctx, id) // locks the row: no rotation in between
			if err != nil {
				return err
			}
			creds, ok, err := a.secrets.Reseal(u.Name(), u.Credentials())
			if err != nil {
				return fmt.Errorf("user %q: %w", u.Name(), err)
			}
			if !ok {
				continue
			}
			u.RotateKey(creds)
			if err := repo.Save(ctx, u); err != nil {
				return err
			}
			changed++
		}
		n, err := a.sealWebhookSecrets(ctx, s)
		changed += n
		return err
	})
	return changed, err
}

// sealWebhookSecrets brings every webhook's signing secret under the
// current secret, in the transaction of SealCredentials.
func (a *App) sealWebhookSecrets(ctx context.Context, s ports.Store) (changed int, err error) {
	repo := s.Webhooks()
	ids, err := allIDs(ctx, repo.List, (*webhook.Webhook).ID)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		w, err := repo.Get(ctx, id) // locks the row: no rotation in between
		if err != nil {
			return changed, err
		}
		sealed, ok, err := a.secrets.ResealWebhookSecret(w.Secret())
		if err != nil {
			return changed, fmt.Errorf("webhook %d: %w", id, err)
		}
		if !ok {
			continue
		}
		w.RotateSecret(sealed)
		if err := repo.Save(ctx, w); err != nil {
			return changed, err
		}
		changed++
	}
	return changed, nil
}

// allIDs lists the ids of every item of a list, page by page.
func allIDs[T any](ctx context.Context, list func(context.Context, ports.ListQuery) (ports.Page[T], error), id func(T) int64) ([]int64, error) {
	var ids []int64
	for start := 0; ; start += 1000 {
		page, err := list(ctx, ports.ListQuery{Start: start, Limit: 1000})
		if err != nil {
			return nil, err
		}
		for _, item := range page.Items {
			ids = append(ids, id(item))
		}
		if len(page.Items) == 0 || start+len(page.Items) >= page.Total {
			return ids, nil
		}
	}
}
