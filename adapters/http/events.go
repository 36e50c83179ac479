package http

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/domain/errs"
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

// readEvents serves the change feed.
func (h *Handler) readEvents(w http.ResponseWriter, r *http.Request) error {
	after, size, types, err := feedQuery(r)
	if err != nil {
		return err
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

// feedQuery reads after, limit and type. Whatever it cannot read is a 400
// naming the parameter, never a value left out: a type dropped from the
// filter would hand a client every event of every type.
func feedQuery(r *http.Request) (after int64, size int, types []string, err error) {
	q, err := parseQuery(r)
	if err != nil {
		return 0, 0, nil, err
	}
	after, size = 0, limit.DefaultFeedPage
	// What is not one integer is out of range too (-1 fails either check).
	number := func(name string) (int64, bool) {
		values, given := q[name]
		if !given {
			return 0, false
		}
		if len(values) != 1 {
			return -1, true
		}
		n, err := strconv.ParseInt(values[0], 10, 64)
		if err != nil {
			return -1, true
		}
		return n, true
	}
	if n, given := number("after"); given {
		if err := limit.CheckFeedAfter(n); err != nil {
			return 0, 0, nil, err
		}
		after = n
	}
	if n, given := number("limit"); given {
		if err := limit.CheckFeedPage(n); err != nil {
			return 0, 0, nil, err
		}
		size = int(n)
	}
	for _, raw := range q["type"] {
		for t := range strings.SplitSeq(raw, ",") {
			if t = strings.TrimSpace(t); t == "" {
				return 0, 0, nil, errs.InvalidFields(errs.FieldError{Property: "type",
					Message: "must be an event type or a comma list of them, without empty entries"})
			}
			types = append(types, t)
		}
	}
	return after, size, types, nil
}
