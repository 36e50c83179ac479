package console

import (
	"net/http"

	"github.com/shopstock/inventory/domain/session"
	"github.com/shopstock/inventory/ports"
)

// positionCookie keeps, for the session, the database position of the
// last write the session's posts committed, so that the pages after them
// show them, whichever instance and replica serve those. A browser sends it
// to every instance as it does the session; a position someone forges
// only sends that someone's pages to the primary.
const positionCookie = "inventory_console_position"

// readsAfterWrites lets a page's reads go to a replica that has replayed
// the session's last write; without a position they may go to any usable
// replica, and with a position that is not one (the cookie was altered),
// to the primary.
func (h *Handler) readsAfterWrites(r *http.Request) *http.Request {
	var after ports.Position
	if raw, ok := h.readCookie(r, positionCookie); ok {
		var err error
		if after, err = ports.ParsePosition(raw); err != nil {
			return r
		}
	}
	return r.WithContext(ports.ReadFromReplica(r.Context(), after))
}

// notesWrites keeps the position of each write the post commits in the
// session's position cookie.
func (h *Handler) notesWrites(w http.ResponseWriter, r *http.Request) *http.Request {
	return r.WithContext(ports.WhenCommitted(r.Context(), func(p ports.Position) {
		http.SetCookie(w, h.cookie(r, positionCookie, p.String(), int(session.IdleTimeout.Seconds())))
	}))
}
