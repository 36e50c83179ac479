package application

import (
	"context"
	"crypto/rand"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/webhook"
	"github.com/shopstock/inventory/ports"
)

// WebhookInput is what a client sends to create or change a webhook; nil
// leaves a field as it is (on create: the defaults).
type WebhookInput struct {
	URL         *string
	Events      *[]string
	Description *string
	Enabled     *bool
}

func newSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return webhook.NewSecret(b)
}

// CreateWebhook subscribes a URL to events and returns the id and the
// secret, which nothing shows again.
func (a *App) CreateWebhook(ctx context.Context, in WebhookInput) (id int64, secret string, err error) {
	if err := permit(ctx, access.ManageWebhooks); err != nil {
		return id, secret, err
	}
	var url, description string
	var events []string
	enabled := true
	if in.URL != nil {
		url = *in.URL
	}
	if in.Events != nil {
		events = *in.Events
	}
	if in.Description != nil {
		description = *in.Description
	}
	if in.Enabled != nil {
		enabled = *in.Enabled
	}
	secret = newSecret()
	w, err := webhook.New(url, events, description, enabled, a.secrets.SealWebhookSecret(secret), a.clock.Now())
	if err != nil {
		return 0, "", err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		return s.Webhooks().Add(ctx, w)
	})
	return w.ID(), secret, err
}

// Webhook reads one webhook.
func (a *App) Webhook(ctx context.Context, id int64) (w *webhook.Webhook, err error) {
	if err := permit(ctx, access.ManageWebhooks); err != nil {
		return w, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		w, err = s.Webhooks().Get(ctx, id)
		return err
	})
	return w, err
}

// Webhooks reads one page of webhooks.
func (a *App) Webhooks(ctx context.Context, q ports.ListQuery) (p ports.Page[*webhook.Webhook], err error) {
	if err := permit(ctx, access.ManageWebhooks); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		p, err = s.Webhooks().List(ctx, q)
		return err
	})
	return p, err
}

// UpdateWebhook changes the fields in names. A webhook disabled and enabled
// again receives no event committed in between.
func (a *App) UpdateWebhook(ctx context.Context, id int64, in WebhookInput) error {
	if err := permit(ctx, access.ManageWebhooks); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		w, err := s.Webhooks().Get(ctx, id)
		if err != nil {
			return err
		}
		p := webhook.Patch{URL: in.URL, Events: in.Events, Description: in.Description, Enabled: in.Enabled}
		if err := w.Apply(p); err != nil {
			return err
		}
		return s.Webhooks().Save(ctx, w)
	})
}

// DeleteWebhook removes a webhook and its deliveries; nothing more is sent.
func (a *App) DeleteWebhook(ctx context.Context, id int64) error {
	if err := permit(ctx, access.ManageWebhooks); err != nil {
		return err
	}
	return a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		if _, err := s.Webhooks().Get(ctx, id); err != nil {
			return err
		}
		return s.Webhooks().Delete(ctx, id)
	})
}

// RotateWebhookSecret gives the webhook a new secret, which signs every
// attempt from now on, and returns it.
func (a *App) RotateWebhookSecret(ctx context.Context, id int64) (secret string, err error) {
	if err := permit(ctx, access.ManageWebhooks); err != nil {
		return secret, err
	}
	secret = newSecret()
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		w, err := s.Webhooks().Get(ctx, id)
		if err != nil {
			return err
		}
		w.RotateSecret(a.secrets.SealWebhookSecret(secret))
		return s.Webhooks().Save(ctx, w)
	})
	return secret, err
}

// WebhookDeliveries reads one page of a webhook's delivery log.
func (a *App) WebhookDeliveries(ctx context.Context, id int64, q ports.ListQuery) (p ports.Page[ports.WebhookDelivery], err error) {
	if err := permit(ctx, access.ManageWebhooks); err != nil {
		return p, err
	}
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		if _, err := s.Webhooks().Get(ctx, id); err != nil {
			return err
		}
		p, err = s.Webhooks().Deliveries(ctx, id, q)
		return err
	})
	return p, err
}
