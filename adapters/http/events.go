package http

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/domain/limit"
)

type eventJSON struct {
	ID        int64           `json:"id"`
	Type      string          `json:"type"`
	CreatedAt string          `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

type feedBody struct {
	Success bool        `json:"success"`
	Data    []eventJSON `json:"data"`
	Last    int64       `json:"last"`
}

func (h *Handler) eventRoutes() {
	h.api("GET /api/events", h.readEvents)
}

// readEvents serves the change feed (extensions E2).
func (h *Handler) readEvents(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	after, size := int64(0), limit.DefaultFeedPage
	// What is not an integer is out of range too (-1 fails either check).
	if raw := q.Get("after"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			n = -1
		}
		if err := limit.CheckFeedAfter(n); err != nil {
			return err
		}
		after = n
	}
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			n = -1
		}
		if err := limit.CheckFeedPage(n); err != nil {
			return err
		}
		size = int(n)
	}
	var types []string
	for _, raw := range q["type"] {
		for _, t := range strings.Split(raw, ",") {
			if t = strings.TrimSpace(t); t != "" {
				types = append(types, t)
			}
		}
	}
	page, err := h.app.ReadEvents(r.Context(), after, size, types)
	if err != nil {
		return err
	}
	body := feedBody{Success: true, Data: make([]eventJSON, len(page.Events)), Last: page.Last}
	for i, e := range page.Events {
		body.Data[i] = eventJSON{ID: e.ID, Type: e.Type, CreatedAt: e.CreatedAt.UTC().Format(timeLayout), Data: e.Data}
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}
