package console

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/shopstock/inventory/adapters/stockcsv"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// previewRows is how many lines of a preview the page lists; the counts
// cover every line.
const previewRows = 500

type csvData struct {
	Warehouses []*warehouse.Warehouse
	Form       *form
	// A preview, when a file was uploaded.
	Preview *importPreview
	// Rejected lists the lines of an import that was refused.
	Rejected []errs.LineError
}

// previewLine is a line of the file beside what it would do.
type previewLine struct {
	application.ImportLine
	application.ImportLinePreview
	// Says why the line would fail, in the worker's words.
	Says string
}

type importPreview struct {
	Mode     string
	CSV      string
	Lines    []previewLine
	Total    int
	Failed   int
	Apply    *form
	Shown    int
	Filename string
	// Lots: some line names a lot, so the preview has a lot column.
	Lots bool
}

func (h *Handler) csvRoutes() {
	h.page("GET /console/stock", h.stockPage)
	h.page("GET /console/stock.csv", h.exportStock)
	h.page("GET /console/stock/template.csv", h.importTemplate)
	h.action("POST /console/stock/preview", access.WriteStock, h.previewImport)
	h.action("POST /console/stock/import", access.WriteStock, h.applyImport)
}
func (h *Handler) stockPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	return h.csvPage(w, r, u, http.StatusOK, csvData{Form: newForm()})
}

func (h *Handler) exportStock(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	code := r.URL.Query().Get("warehouse")
	name := "stock.csv"
	if code != "" {
		name = "stock-" + code + ".csv"
	}
	body, err := stockcsv.Render(func(each func(ports.StockExportRow) error) error {
		return h.app.ExportStock(r.Context(), code, each)
	})
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if err := stockcsv.Send(w, body); err != nil {
		// The download is cut short, which the browser reports.
		panic(http.ErrAbortHandler)
	}
	return nil
}

func (h *Handler) importTemplate(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	body := stockcsv.Template()
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="stock-import.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, err := w.Write(body)
	return err
}

func (h *Handler) previewImport(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	f := postedForm(r)
	mode := application.ImportMode(f.Val("mode"))
	if mode != application.ImportSet && mode != application.ImportChange {
		f.fail("mode", "Choose whether the file sets or changes stock.")
	}
	file, header, err := r.FormFile("file")
	if err != nil {
		f.fail("file", "Choose a CSV file to upload.")
		return h.csvPage(w, r, u, http.StatusBadRequest, csvData{Form: f})
	}
	defer file.Close()
	body, err := io.ReadAll(file)
	if err != nil {
		return err
	}
	if f.Failed() {
		return h.csvPage(w, r, u, http.StatusBadRequest, csvData{Form: f})
	}
	pv, err := h.preview(r, u, mode, body, header.Filename)
	if errs.KindOf(err) == errs.Invalid {
		f.fail("file", messageOf(err))
		return h.csvPage(w, r, u, http.StatusBadRequest, csvData{Form: f})
	}
	if err != nil {
		return err
	}
	return h.csvPage(w, r, u, http.StatusOK, csvData{Form: f, Preview: pv})
}

// preview reads an uploaded file and has the service try it (always
// rolled back): what each of its first previewRows lines would do.
func (h *Handler) preview(r *http.Request, u *application.ConsoleUser, mode application.ImportMode, body []byte, filename string) (*importPreview, error) {
	lines, err := stockcsv.ReadImport(body, mode)
	if err != nil {
		return nil, err
	}
	p, err := h.app.PreviewStockImport(r.Context(), u.Name, mode, lines)
	if err != nil {
		return nil, err
	}
	pv := &importPreview{Mode: string(mode), CSV: string(body), Total: len(p.Lines), Failed: p.Failed,
		Apply: newForm(), Filename: filename}
	for i, l := range p.Lines {
		if len(pv.Lines) == previewRows {
			break
		}
		row := previewLine{ImportLine: lines[i], ImportLinePreview: l}
		if !l.Success && !l.Skipped {
			if row.Says, err = h.importSays(r, lines[i], l); err != nil {
				return nil, err
			}
		}
		pv.Lines = append(pv.Lines, row)
		pv.Lots = pv.Lots || lines[i].Lot != nil
	}
	pv.Shown = len(pv.Lines)
	return pv, nil
}

func (h *Handler) applyImport(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser) error {
	f := postedForm(r)
	mode := application.ImportMode(f.Val("mode"))
	body := []byte(r.PostFormValue("csv")) // untrimmed: the file as uploaded
	done, err := h.runImport(r, u, f, mode, body)
	if err == nil {
		h.redirect(w, r, "/console/stock", done)
		return nil
	}
	e, ok := errs.As(err)
	if !ok || (e.Kind != errs.Invalid && e.Kind != errs.Conflict) {
		return err
	}
	up := newForm()
	up.Values["mode"] = string(mode)
	up.fail("file", messageOf(err))
	if e.Kind == errs.Conflict {
		up.Errors["file"] = "This import form was already used for another file. Upload the file again."
	}
	return h.csvPage(w, r, u, http.StatusBadRequest, csvData{Form: up, Rejected: e.Lines})
}

// runImport imports the file under the form's key and says what it did.
func (h *Handler) runImport(r *http.Request, u *application.ConsoleUser, f *form, mode application.ImportMode, body []byte) (string, error) {
	lines, err := stockcsv.ReadImport(body, mode)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(body)
	// The API's endpoint and fingerprint (the file's SHA-256): an import is
	// the same request from either side.
	meta := application.BatchMeta{Key: f.Key, Endpoint: "stock/import/" + string(mode),
		Fingerprint: hex.EncodeToString(sum[:]), User: u.Name}
	out, err := h.app.ImportStock(r.Context(), meta, mode, lines, func(res application.ImportResult) ([]byte, error) {
		return json.Marshal(res)
	})
	if err != nil {
		return "", err
	}
	var res application.ImportResult
	if err := json.Unmarshal(out.Body, &res); err != nil {
		return "", err
	}
	done := fmt.Sprintf("Imported %d lines.", res.Lines)
	if out.Replayed {
		done = "This import had already been applied; it was applied once. " + done
	}
	return done, nil
}

func (h *Handler) csvPage(w http.ResponseWriter, r *http.Request, u *application.ConsoleUser, status int, d csvData) error {
	whs, err := h.warehouses(r)
	if err != nil {
		return err
	}
	// The mode is chosen each time: a count uploaded as a change, or
	// deliveries as a set, would be wrong by every line.
	d.Warehouses = whs
	h.render(w, r, status, "stockcsv", view{Title: "Import and export", Nav: "stock", User: u, Data: d})
	return nil
}

// importSays tells why an import line would fail, in the worker's words:
// by the rule it breaks and the codes the line itself names.
func (h *Handler) importSays(r *http.Request, l application.ImportLine, p application.ImportLinePreview) (string, error) {
	if l.Problem != "" {
		return "This line cannot be read: " + l.Problem + ".", nil
	}
	switch p.Code {
	case stock.UnknownWarehouse:
		return fmt.Sprintf("There is no warehouse %s.", l.WarehouseCode), nil
	case stock.UnknownBinLocation:
		return fmt.Sprintf("There is no bin location %s in warehouse %s.", l.BinLocationCode, l.WarehouseCode), nil
	case "":
		// The one failure of a readable line without a rule is a product
		// number that names nothing.
		id, err := h.articleByNumber(r, l.ArticleDetailNumber)
		if err != nil {
			return "", err
		}
		if id == 0 {
			return fmt.Sprintf("There is no product %s.", l.ArticleDetailNumber), nil
		}
	}
	return h.say(r.Context(), failure{Message: p.Message, Property: p.Property, Code: p.Code, Subject: p.Subject}), nil
}

// articleByNumber is the id of the product with that number, 0 when none.
func (h *Handler) articleByNumber(r *http.Request, number string) (int64, error) {
	p, err := h.app.ArticleDetails(r.Context(), ports.ListQuery{Limit: 1, Filters: []ports.Filter{
		{Property: "articleDetail.number", Expression: ports.ExprEqual, Values: []any{number}},
	}})
	if err != nil || len(p.Items) == 0 {
		return 0, err
	}
	return p.Items[0].Article.ID(), nil
}
