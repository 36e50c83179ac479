package http

import (
	"context"
	"fmt"
	"net/http"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// writeList answers a list request: the list parameters checked against
// the resource's fields, one page fetched, each item rendered.
func writeList[T, J any](w http.ResponseWriter, r *http.Request, fields ports.ListFields,
	fetch func(context.Context, ports.ListQuery) (ports.Page[T], error), render func(T) J) error {
	query, err := parseQuery(r)
	if err != nil {
		return err
	}
	q, err := parseList(query, fields)
	if err != nil {
		return err
	}
	p, err := fetch(r.Context(), q)
	if err != nil {
		return err
	}
	data := make([]J, len(p.Items))
	for i, item := range p.Items {
		data[i] = render(item)
	}
	writeJSON(w, http.StatusOK, listBody[J]{Success: true, Total: p.Total, Data: data})
	return nil
}

type listBody[T any] struct {
	Success bool `json:"success"`
	Total   int  `json:"total"`
	Data    []T  `json:"data"`
}

type dataBody[T any] struct {
	Success bool `json:"success"`
	Data    T    `json:"data"`
}

type created struct {
	ID       int64  `json:"id"`
	Location string `json:"location"`
}

func (h *Handler) writeCreated(w http.ResponseWriter, r *http.Request, path string, id int64, asArray bool) {
	c := created{ID: id, Location: h.location(r, fmt.Sprintf("%s/%d", path, id))}
	w.Header().Set("Location", c.Location)
	if asArray {
		writeJSON(w, http.StatusCreated, dataBody[[]created]{Success: true, Data: []created{c}})
		return
	}
	writeJSON(w, http.StatusCreated, dataBody[created]{Success: true, Data: c})
}

func notFoundError(resource, raw string) error {
	return errs.NotFoundf("%s %q not found", resource, raw)
}

// emptyObject accepts no body or `{}`, for actions that take no input.
func emptyObject(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	_, err := optionalBody(w, r, &body)
	return err
}

// optionalBody decodes the request body into dst strictly when there is
// one, and tells whether there was; no body leaves dst as it is.
func optionalBody(w http.ResponseWriter, r *http.Request, dst any) (bool, error) {
	raw, err := readBody(r, w)
	if err != nil || raw == nil {
		return false, err
	}
	return true, decodeStrict(raw, dst)
}
