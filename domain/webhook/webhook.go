// Package webhook holds the Webhook aggregate: a shop's subscription to
// events, delivered to its URL and signed with its secret.
package webhook

import (
	"encoding/base64"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/event"
)

// SecretPrefix starts every secret, as the Standard Webhooks specification has it.
const SecretPrefix = "whsec_"

// MaxURLLength is the longest URL a webhook may have.
const MaxURLLength = 2048

// Webhook is a subscription. Its secret signs every delivery.
type Webhook struct {
	id          int64
	url         string
	events      []string
	description string
	enabled     bool
	secret      string
	createdAt   time.Time
}

// Patch carries the fields of a partial update; nil means "leave as it is".
type Patch struct {
	URL         *string
	Events      *[]string
	Description *string
	Enabled     *bool
}

// New validates a subscription; secret is a fresh one (see NewSecret).
func New(rawURL string, events []string, description string, enabled bool, secret string, now time.Time) (*Webhook, error) {
	w := &Webhook{enabled: true, secret: secret, createdAt: now}
	if err := w.Apply(Patch{URL: &rawURL, Events: &events, Description: &description, Enabled: &enabled}); err != nil {
		return nil, err
	}
	return w, nil
}

// UnmarshalWebhookFromDatabase rebuilds a stored webhook.
func UnmarshalWebhookFromDatabase(id int64, url string, events []string, description string, enabled bool, secret string, createdAt time.Time) *Webhook {
	return &Webhook{id: id, url: url, events: events, description: description, enabled: enabled, secret: secret, createdAt: createdAt}
}

// Apply changes the fields p names, all or nothing.
func (w *Webhook) Apply(p Patch) error {
	next := *w
	var fields []errs.FieldError
	if p.URL != nil {
		if msg := checkURL(*p.URL); msg != "" {
			fields = append(fields, errs.FieldError{Property: "url", Message: msg})
		}
		next.url = *p.URL
	}
	if p.Events != nil {
		if msg := checkEvents(*p.Events); msg != "" {
			fields = append(fields, errs.FieldError{Property: "events", Message: msg})
		}
		next.events = slices.Compact(slices.Sorted(slices.Values(*p.Events)))
	}
	if p.Description != nil {
		next.description = strings.TrimSpace(*p.Description)
		switch {
		case !utf8.ValidString(next.description) || strings.IndexFunc(next.description, isControl) >= 0:
			fields = append(fields, errs.FieldError{Property: "description", Message: "must be valid UTF-8 without control characters"})
		case utf8.RuneCountInString(next.description) > code.MaxText:
			fields = append(fields, errs.FieldError{Property: "description", Message: "must be at most " + strconv.Itoa(code.MaxText) + " characters"})
		}
	}
	if p.Enabled != nil {
		next.enabled = *p.Enabled
	}
	if len(fields) > 0 {
		return errs.InvalidFields(fields...)
	}
	*w = next
	return nil
}

func isControl(r rune) bool { return !code.Allowed(r, false) }

func checkURL(raw string) string {
	if len(raw) > MaxURLLength {
		return "must be at most " + strconv.Itoa(MaxURLLength) + " characters"
	}
	if !utf8.ValidString(raw) || strings.IndexFunc(raw, isControl) >= 0 {
		return "must be valid UTF-8 without control characters"
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return "must be an absolute http or https URL"
	}
	if u.User != nil {
		return "must not carry user credentials"
	}
	return ""
}

func checkEvents(events []string) string {
	if len(events) == 0 {
		return "must name at least one event type"
	}
	for _, e := range events {
		if msg := event.CheckType(e); msg != "" {
			return msg
		}
	}
	return ""
}

// NewSecret spells 32 random bytes as a secret.
func NewSecret(random [32]byte) string {
	return SecretPrefix + base64.StdEncoding.EncodeToString(random[:])
}

// RotateSecret replaces the secret; the old one signs nothing from now on.
func (w *Webhook) RotateSecret(secret string) { w.secret = secret }

// Receives lists the event types the webhook is to be sent from now on:
// those it subscribes to while it is enabled, none while it is disabled.
// Storage keeps this list, so that recording an event finds its webhooks
// without deciding anything itself.
func (w *Webhook) Receives() []string {
	if !w.enabled {
		return nil
	}
	return slices.Clone(w.events)
}

// Assign records the id storage gave the webhook.
func (w *Webhook) Assign(id int64) { w.id = id }

func (w *Webhook) ID() int64            { return w.id }
func (w *Webhook) URL() string          { return w.url }
func (w *Webhook) Events() []string     { return slices.Clone(w.events) }
func (w *Webhook) Description() string  { return w.description }
func (w *Webhook) Enabled() bool        { return w.enabled }
func (w *Webhook) Secret() string       { return w.secret }
func (w *Webhook) CreatedAt() time.Time { return w.createdAt }
