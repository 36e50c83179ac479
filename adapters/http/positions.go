package http

import (
	"net/http"
	"sync"

	"github.com/shopstock/inventory/ports"
)

// PositionHeader carries the database position of a write's commit in its
// answer; a read that sends it back sees that write, whichever instance
// and replica serve it.
const PositionHeader = "X-Inventory-Position"

// maxRememberedWriters bounds the users whose last write an instance
// remembers: two generations of this many, the older dropped when the
// newer is full, so a user who wrote a while ago may be forgotten (its
// client can still send the header).
const maxRememberedWriters = 10000

// writePositions are the last positions the API users wrote through this
// instance, so that a client that ignores the header still reads its own
// writes here.
type writePositions struct {
	mu              sync.Mutex
	recent, earlier map[string]ports.Position
}

func (w *writePositions) remember(user string, p ports.Position) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.recent) >= maxRememberedWriters {
		w.earlier, w.recent = w.recent, nil
	}
	if w.recent == nil {
		w.recent = map[string]ports.Position{}
	}
	w.recent[user] = max(w.recent[user], p)
}

func (w *writePositions) last(user string) ports.Position {
	w.mu.Lock()
	defer w.mu.Unlock()
	return max(w.recent[user], w.earlier[user])
}

// routeReads lets a GET's reads go to a replica that has replayed both the
// position the request sends and the last one its user wrote here; any
// other request's commits answer with their position, and are remembered
// for the user. A malformed header is refused, naming it.
func (h *Handler) routeReads(w http.ResponseWriter, r *http.Request) (*http.Request, error) {
	var sent ports.Position
	if raw := r.Header.Get(PositionHeader); raw != "" {
		var err error
		if sent, err = ports.ParsePosition(raw); err != nil {
			return r, &protocolError{status: http.StatusBadRequest, message: PositionHeader + ": " + err.Error()}
		}
	}
	user := apiUser(r.Context())
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return r.WithContext(ports.ReadFromReplica(r.Context(), max(sent, h.positions.last(user)))), nil
	}
	return r.WithContext(ports.WhenCommitted(r.Context(), func(p ports.Position) {
		h.positions.remember(user, p)
		w.Header().Set(PositionHeader, p.String())
	})), nil
}
