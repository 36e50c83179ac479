package console

import (
	"net/http"
	"strconv"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/webhook"
	"github.com/shopstock/inventory/ports"
)

// deliveriesPerPage is how many deliveries a webhook's page lists.
const deliveriesPerPage = 50

type webhookData struct {
	Webhook     *webhook.Webhook
	Deliveries  []ports.WebhookDelivery
	Page, Pages int
	Total       int
}

// forbiddenPage answers a page the user's role may not see: the permission
// table keeps webhooks for admins.
func (h *Handler) forbiddenPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	h.forbidden(w, r, "webhooks are for admins; your role is "+string(u.Role))
	return nil
}

func (h *Handler) webhookRoutes() {
	h.page("GET /console/webhooks", h.listWebhooks)
	h.page("GET /console/webhooks/{id}", h.showWebhook)
}
func (h *Handler) listWebhooks(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	if !may(u, access.ManageWebhooks) {
		return h.forbiddenPage(w, r, u)
	}
	p, err := h.app.Webhooks(r.Context(), ports.ListQuery{Limit: limit.DefaultListLimit, Sorts: []ports.Sort{{Property: "webhook.id"}}})
	if err != nil {
		return err
	}
	h.render(w, r, http.StatusOK, "webhooks", view{Title: "Webhooks", Nav: "webhooks", User: u, Data: p.Items})
	return nil
}

func (h *Handler) showWebhook(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	if !may(u, access.ManageWebhooks) {
		return h.forbiddenPage(w, r, u)
	}
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return err
	}
	d := webhookData{Page: 1}
	if d.Webhook, err = h.app.Webhook(r.Context(), id); err != nil {
		return err
	}
	if p, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && p > 1 && p < 1_000_000 {
		d.Page = p
	}
	p, err := h.app.WebhookDeliveries(r.Context(), id, ports.ListQuery{Start: (d.Page - 1) * deliveriesPerPage, Limit: deliveriesPerPage,
		Sorts: []ports.Sort{{Property: "delivery.eventId", Descending: true}}})
	if err != nil {
		return err
	}
	d.Deliveries, d.Total = p.Items, p.Total
	d.Pages = max(1, (p.Total+deliveriesPerPage-1)/deliveriesPerPage)
	h.render(w, r, http.StatusOK, "webhook", view{Title: "Webhook " + d.Webhook.URL(), Nav: "webhooks", User: u, Data: d})
	return nil
}
