package http

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/stockcsv"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// maxCSVBytes bounds an import: 100 000 lines with codes of a realistic
// length fit several times over.
const maxCSVBytes = 32 << 20

var (
	errCSVTooLarge    = &protocolError{status: http.StatusRequestEntityTooLarge, message: "request body is larger than 32 MiB"}
	errUnsupportedCSV = &protocolError{status: http.StatusUnsupportedMediaType, message: "request body must be text/csv (in UTF-8)"}
)

func (h *Handler) stockCSVRoutes() {
	h.api("GET /api/stock.csv", h.exportStock)
	h.api("PUT /api/stock/import/{mode}/{idempotencyKey}", h.importStock)
}

// exportStock answers every mapping as CSV. The rows are read whole first,
// into a temporary file (stockcsv.Spool), so that any error is an ordinary
// error response, the database connection is free before the client reads
// the first byte, and the memory an export takes does not grow with it.
func (h *Handler) exportStock(w http.ResponseWriter, r *http.Request) error {
	query, err := parseQuery(r)
	if err != nil {
		return err
	}
	for name := range query {
		if name != "warehouse" {
			return errs.Invalidf("unknown query parameter %q; allowed: warehouse", name).On(name)
		}
	}
	code := ""
	if values, ok := query["warehouse"]; ok {
		if len(values) != 1 {
			return errs.Invalidf("give warehouse once").On("warehouse")
		}
		if code = strings.TrimSpace(values[0]); code == "" {
			return errs.Invalidf("warehouse must be a warehouse code, not empty").On("warehouse")
		}
	}
	body, err := stockcsv.Spool(func(each func(ports.StockExportRow) error) error {
		return h.app.ExportStock(r.Context(), code, each)
	})
	if err != nil {
		return err
	}
	defer body.Close()
	w.Header().Set("Content-Type", "text/csv")
	w.Header().Set("Content-Disposition", `attachment; filename="stock.csv"`)
	w.Header().Set("Content-Length", strconv.FormatInt(body.Size(), 10))
	w.WriteHeader(http.StatusOK)
	if err := body.Send(w); err != nil {
		// The client stopped reading (the write deadline) or went away;
		// the answer is cut, and its Content-Length says so.
		h.log.Warn("stock export broke off", zap.String("request_id", requestID(r.Context())), zap.Error(err))
		panic(http.ErrAbortHandler)
	}
	return nil
}

// checkImport checks what an import's body is not needed for, before the
// body is read: the mode and the media type.
func checkImport(r *http.Request) error {
	mode := application.ImportMode(r.PathValue("mode"))
	if mode != application.ImportSet && mode != application.ImportChange {
		return errs.NotFoundf("import mode %q not found: use set or change", mode)
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "text/csv" {
		return errUnsupportedCSV
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "us-ascii") {
		return errUnsupportedCSV
	}
	return nil
}

// importStock applies a CSV import, all lines or none, under its key.
func (h *Handler) importStock(w http.ResponseWriter, r *http.Request) error {
	mode := application.ImportMode(r.PathValue("mode"))
	if err := checkImport(r); err != nil {
		// An import without a body is checked here; one with a body was
		// before it was read (bodyLimits).
		return err
	}
	raw, err := readCSV(w, r)
	if err != nil {
		return err
	}
	lines, err := stockcsv.ReadImport(raw, mode)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(raw)
	meta := application.BatchMeta{
		Key: r.PathValue("idempotencyKey"), Endpoint: "stock/import/" + string(mode),
		Fingerprint: hex.EncodeToString(sum[:]), User: apiUser(r.Context()),
	}
	out, err := h.app.ImportStock(r.Context(), meta, mode, lines, renderImport)
	if err != nil {
		return err
	}
	writeBatch(w, out)
	return nil
}

type importData struct {
	Lines int `json:"lines"`
}

func renderImport(r application.ImportResult) ([]byte, error) {
	return json.Marshal(dataBody[importData]{Success: true, Data: importData{Lines: r.Lines}})
}

// readCSV returns the request body, checked for size and NUL characters.
func readCSV(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCSVBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errCSVTooLarge
		}
		return nil, errs.Invalidf("cannot read request body: %v", err)
	}
	if strings.IndexByte(string(body), 0) >= 0 {
		return nil, errs.Invalidf("request body must not contain the NUL character")
	}
	return body, nil
}
