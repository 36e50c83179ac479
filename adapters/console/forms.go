package console

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/stock"
)

// form is one form of a page: the idempotency key it was rendered with,
// what was entered, and the errors beside each field ("" is the form's
// own, shown above its button).
type form struct {
	Key    string
	Values map[string]string
	Errors map[string]string
	// Asks is the quantity box whose number is so large that the form
	// asks before booking it (entry).
	Asks string
}

func newForm() *form {
	return &form{Key: rand.Text() + rand.Text(), Values: map[string]string{}, Errors: map[string]string{}}
}

// postedForm is the form as submitted, keeping its key for a replay.
func postedForm(r *http.Request) *form {
	f := &form{Key: r.PostFormValue("key"), Values: map[string]string{}, Errors: map[string]string{}}
	for k, v := range r.PostForm {
		if len(v) > 0 {
			f.Values[k] = strings.TrimSpace(v[0])
		}
	}
	return f
}

// Val is what the field holds.
func (f *form) Val(field string) string { return f.Values[field] }

// Err is the error shown beside the field.
func (f *form) Err(field string) string { return f.Errors[field] }

// Failed tells whether the form has any error.
func (f *form) Failed() bool { return len(f.Errors) > 0 }

// renew gives a failed form a new key: the failure used up the old one.
func (f *form) renew() *form {
	f.Key = rand.Text() + rand.Text()
	return f
}

func (f *form) fail(field, msg string) {
	if _, taken := f.Errors[field]; !taken {
		f.Errors[field] = msg
	}
}

// quantity reads a whole number the way the API's bounds allow.
func (f *form) quantity(field string, positive bool) int {
	raw := f.Values[field]
	if raw == "" {
		f.fail(field, "Enter a quantity.")
		return 0
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		f.fail(field, "Enter a whole number.")
		return 0
	}
	q, err := stock.ParseQuantity(field, n)
	if err != nil {
		f.fail(field, fmt.Sprintf("Must be a whole number from 0 to %d.", stock.MaxQuantity))
		return 0
	}
	if positive && q <= 0 {
		f.fail(field, "Must be at least 1.")
	} else if q < 0 {
		f.fail(field, "Must not be negative.")
	}
	return q
}

// id reads a required positive id chosen in a select.
func (f *form) id(field, what string) int64 {
	n, err := strconv.ParseInt(f.Values[field], 10, 64)
	if err != nil || !limit.ValidID(n) {
		f.fail(field, "Choose "+what+".")
		return 0
	}
	return n
}

// fingerprint tells two submissions of a form apart by what they ask for.
func (f *form) fingerprint(action string) string {
	keys := make([]string, 0, len(f.Values))
	for k := range f.Values {
		if k != "csrf" && k != "key" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	sum := sha256.New()
	sum.Write([]byte(action))
	for _, k := range keys {
		sum.Write([]byte{0})
		sum.Write([]byte(k + "=" + f.Values[k]))
	}
	return hex.EncodeToString(sum.Sum(nil))
}

// fields maps the properties of the request a form sends, as the service
// names them in its errors, to the form's fields that hold them.
type fields map[string]string

// locationFields are the properties of a location that form.location
// reads, under prefix ("destination." for where a relocation goes).
func locationFields(prefix, warehouseField, binField string) fields {
	return fields{
		prefix + "warehouse":               warehouseField,
		prefix + "binLocation":             binField,
		prefix + "binLocation.warehouseId": warehouseField,
	}
}

// with is the union of two maps of fields, a new map.
func (fs fields) with(more fields) fields {
	out := make(fields, len(fs)+len(more))
	for _, m := range []fields{fs, more} {
		for p, field := range m {
			out[p] = field
		}
	}
	return out
}

// place puts a use case's message beside the field that holds the property
// its error concerns; a property inside one (binLocation.code) goes where
// the one that holds it goes, and anything else beside fallback.
func (f *form) place(msg, property string, where fields, fallback string) {
	for p := property; p != ""; {
		if field, ok := where[p]; ok {
			f.fail(field, msg)
			return
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	f.fail(fallback, msg)
}

// placeError is place for an error of a use case, in the worker's words.
func (h *Handler) placeError(ctx context.Context, f *form, err error, where fields, fallback string) {
	fl := failureOf(err)
	f.place(h.say(ctx, fl), fl.Property, where, fallback)
}

// storedResult is one operation's result as a form stores it for a
// replay: with the property its error concerns, so that a replay places
// the error as the first run did.
type storedResult struct {
	Success  bool         `json:"success"`
	Message  string       `json:"message,omitempty"`
	Property string       `json:"property,omitempty"`
	Code     errs.Code    `json:"code,omitempty"`
	Subject  errs.Subject `json:"subject"`
}

// renderResults is what the batch engine stores under the form's key and
// hands back when the form is submitted again.
func renderResults(res application.BatchResult) ([]byte, error) {
	out := make([]storedResult, len(res.Results))
	for i, r := range res.Results {
		out[i] = storedResult{Success: r.Success, Message: r.Message, Property: r.Property, Code: r.Code, Subject: r.Subject}
	}
	return json.Marshal(out)
}

// batchRun is the outcome of a form run through the batch engine.
type batchRun struct {
	Results  []storedResult
	Replayed bool
}

// stockBatch runs stock operations through the same idempotent engine as
// PUT /api/stock/…, under the same endpoint name (which names the cause of
// stock.changed): under the form's key, once, with the user in the ledger.
// The fingerprint is the form's, so a key never matches an API body.
func (h *Handler) stockBatch(ctx context.Context, u *application.ConsoleUser, f *form, endpoint, action string, ops []application.BatchOperation) (batchRun, error) {
	meta := application.BatchMeta{Key: f.Key, Endpoint: endpoint, Fingerprint: f.fingerprint("console " + action), User: u.Name}
	out, err := h.app.StockBatch(ctx, meta, ops, renderResults)
	return decodeRun(out, err)
}

func decodeRun(out application.BatchOutcome, err error) (batchRun, error) {
	if err != nil {
		return batchRun{}, err
	}
	run := batchRun{Replayed: out.Replayed}
	if err := json.Unmarshal(out.Body, &run.Results); err != nil {
		return batchRun{}, err
	}
	return run, nil
}

// formError puts an error of the whole run on the form when it is one the
// person can act on (an invalid key, a key reused with other values), and
// hands anything else back.
func formError(f *form, err error) error {
	switch errs.KindOf(err) {
	case errs.Conflict:
		f.fail("", "This form was already submitted with other values. Reload the page to start over.")
		return nil
	case errs.Invalid:
		f.fail("", messageOf(err))
		return nil
	}
	return err
}

// placeResult puts the error of a failed operation beside its field, in
// the worker's words.
func (h *Handler) placeResult(ctx context.Context, f *form, r storedResult, where fields, fallback string) {
	f.place(h.say(ctx, r.failure()), r.Property, where, fallback)
}

// replayNotice tells the person that a repeated submission did nothing new.
func replayNotice(run batchRun, done string) string {
	if run.Replayed {
		return "This form had already been submitted; it was applied once. " + done
	}
	return done
}
