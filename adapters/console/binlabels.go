package console

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/warehouse"
)

// The label of a bin whose code repeats across warehouses carries the
// warehouse too (warehouse.LabelText), and a scanner types all of it into
// whatever bin field has the focus. A form for a warehouse takes such a
// scan as the code of its bin there.

// readBinLabels puts, in each of fields of a form for warehouse wh, the
// code of the bin its text names as a label of a bin of wh. A text that
// names a bin as written, or a bin of another warehouse, stays as it is
// (the form then says there is no such bin in its warehouse).
func (h *Handler) readBinLabels(r *http.Request, f *form, wh int64, fields ...string) error {
	for _, field := range fields {
		text := f.Val(field)
		if !strings.Contains(text, warehouse.LabelSeparator) {
			continue
		}
		code, err := h.labelledBinCode(r, text, wh)
		if err != nil {
			return err
		}
		if code != "" {
			f.Values[field] = code
		}
	}
	return nil
}

// labelledBinCode is the code of the bin of warehouse wh that text names
// as its label, "" when it names none (or names a bin as written).
func (h *Handler) labelledBinCode(r *http.Request, text string, wh int64) (string, error) {
	t, err := h.app.ResolveScan(r.Context(), text)
	if err != nil {
		return "", err
	}
	if t.Kind != application.ScanBinLocations || len(t.Bins) != 1 || t.Bins[0].ParentID != wh || strings.EqualFold(t.Bins[0].Code, text) {
		return "", nil
	}
	return t.Bins[0].Code, nil
}

// readBinLabelsIn is readBinLabels for a form that names its warehouse in
// warehouseField.
func (h *Handler) readBinLabelsIn(r *http.Request, f *form, warehouseField string, fields ...string) error {
	wh, err := strconv.ParseInt(f.Val(warehouseField), 10, 64)
	if err != nil {
		return nil
	}
	return h.readBinLabels(r, f, wh, fields...)
}
