package http

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/webhook"
	"github.com/shopstock/inventory/ports"
)

type webhookJSON struct {
	ID          int64    `json:"id"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Description string   `json:"description"`
	Enabled     bool     `json:"enabled"`
	CreatedAt   string   `json:"createdAt"`
}

type webhookCreateBody struct {
	URL         *string   `json:"url" validate:"required"`
	Events      *[]string `json:"events" validate:"required"`
	Description *string   `json:"description"`
	Enabled     *bool     `json:"enabled"`
}

type webhookUpdateBody struct {
	URL         *string   `json:"url"`
	Events      *[]string `json:"events"`
	Description *string   `json:"description"`
	Enabled     *bool     `json:"enabled"`
}

type webhookCreatedJSON struct {
	ID       int64  `json:"id"`
	Location string `json:"location"`
	Secret   string `json:"secret"`
}

type secretJSON struct {
	Secret string `json:"secret"`
}

type deliveryJSON struct {
	EventID        int64   `json:"eventId"`
	Type           string  `json:"type"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	LastStatusCode *int    `json:"lastStatusCode"`
	LastError      *string `json:"lastError"`
	NextAttemptAt  *string `json:"nextAttemptAt"`
	DeliveredAt    *string `json:"deliveredAt"`
}

var webhookReadOnly = []string{"id", "secret", "createdAt"}

// webhookRoutes serves the webhook subscriptions; they are for
// administrators only.
func (h *Handler) webhookRoutes() {
	h.api("GET /api/webhooks", h.listWebhooks)
	h.api("POST /api/webhooks", h.createWebhook)
	h.api("GET /api/webhooks/{id}", h.getWebhook)
	h.api("PUT /api/webhooks/{id}", h.updateWebhook)
	h.api("DELETE /api/webhooks/{id}", h.deleteWebhook)
	h.api("POST /api/webhooks/{id}/rotateSecret", h.rotateWebhookSecret)
	h.api("GET /api/webhooks/{id}/deliveries", h.listDeliveries)
}

func toWebhookJSON(w *webhook.Webhook) webhookJSON {
	return webhookJSON{
		ID: w.ID(), URL: w.URL(), Events: w.Events(), Description: w.Description(),
		Enabled: w.Enabled(), CreatedAt: w.CreatedAt().UTC().Format(timeLayout),
	}
}

func (h *Handler) listWebhooks(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.WebhookFields, h.app.Webhooks, toWebhookJSON)
}

func (h *Handler) getWebhook(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return err
	}
	hook, err := h.app.Webhook(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[webhookJSON]{Success: true, Data: toWebhookJSON(hook)})
	return nil
}

func (h *Handler) createWebhook(w http.ResponseWriter, r *http.Request) error {
	var body webhookCreateBody
	if err := h.decode(w, r, &body, webhookReadOnly...); err != nil {
		return err
	}
	id, secret, err := h.app.CreateWebhook(r.Context(), application.WebhookInput{
		URL: body.URL, Events: body.Events, Description: body.Description, Enabled: body.Enabled,
	})
	if err != nil {
		return err
	}
	c := webhookCreatedJSON{ID: id, Location: h.location(r, "/api/webhooks/"+strconv.FormatInt(id, 10)), Secret: secret}
	w.Header().Set("Location", c.Location)
	writeJSON(w, http.StatusCreated, dataBody[webhookCreatedJSON]{Success: true, Data: c})
	return nil
}

func (h *Handler) updateWebhook(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return err
	}
	var body webhookUpdateBody
	if err := h.decode(w, r, &body, webhookReadOnly...); err != nil {
		return err
	}
	err = h.app.UpdateWebhook(r.Context(), id, application.WebhookInput{
		URL: body.URL, Events: body.Events, Description: body.Description, Enabled: body.Enabled,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) deleteWebhook(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return err
	}
	if err := h.app.DeleteWebhook(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return err
	}
	if err := emptyObject(w, r); err != nil {
		return err
	}
	secret, err := h.app.RotateWebhookSecret(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[secretJSON]{Success: true, Data: secretJSON{Secret: secret}})
	return nil
}

func (h *Handler) listDeliveries(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return err
	}
	return writeList(w, r, ports.DeliveryFields,
		func(ctx context.Context, q ports.ListQuery) (ports.Page[ports.WebhookDelivery], error) {
			return h.app.WebhookDeliveries(ctx, id, q)
		}, toDeliveryJSON)
}

func apiTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(timeLayout)
	return &s
}

func toDeliveryJSON(d ports.WebhookDelivery) deliveryJSON {
	return deliveryJSON{
		EventID: d.EventID, Type: d.Type, Status: d.Status, Attempts: d.Attempts,
		LastStatusCode: nonZero(d.LastStatusCode), LastError: nonZero(d.LastError),
		NextAttemptAt: apiTime(d.NextAttemptAt), DeliveredAt: apiTime(d.DeliveredAt),
	}
}
