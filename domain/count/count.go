// Package count holds the Count aggregate: a cycle count that checks what
// lies on some bins of a warehouse against the books, and corrects the
// books by the difference between what it counted and what its snapshot
// held, on top of whatever moved since.
package count

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
)

// Status is where a count stands: Open while it is counted, then Applied
// or Cancelled, each for good.
type Status string

const (
	Open      Status = "Open"
	Applied   Status = "Applied"
	Cancelled Status = "Cancelled"
)

// MaxBins is the most bins one count covers, in every form.
const MaxBins = 10000

// The rules of counts an error can break.
const (
	// NotOpen: counting, applying or cancelling a count that is not Open.
	NotOpen errs.Code = "count_not_open"
	// BinOpenElsewhere: a count names a bin another open count covers.
	BinOpenElsewhere errs.Code = "count_bin_open"
	// Coverage: a request that covers no bin, too many, or names bins and
	// products together.
	Coverage errs.Code = "count_coverage"
	// UncoveredProduct: a counted line names a product the count does
	// not cover.
	UncoveredProduct errs.Code = "count_uncovered_product"
)

// ErrBinNotInWarehouse: a count names a bin of another warehouse, or none.
func ErrBinNotInWarehouse(bin, warehouse int64) error {
	return errs.Invalidf("bin location %d is not in warehouse %d", bin, warehouse).On("binLocations").Breaks(Coverage)
}

// Entry is what the snapshot held of one product (and lot, "" for a
// product that is not lot-tracked) on a bin.
type Entry struct {
	ArticleDetailID int64
	Lot             string
	Stock           int
}

// Line is what a count found of one product (and lot) on a bin. A lot
// that does not exist yet is created with BestBefore when the count is
// applied; BestBeforeGiven tells a null date from none sent.
type Line struct {
	ArticleDetailID int64
	Lot             string
	BestBefore      *time.Time
	BestBeforeGiven bool
	Quantity        int
}

// Bin is one bin a count covers: its snapshot and the ledger position at
// creation, and what was found there once it is counted.
type Bin struct {
	BinLocationID int64
	Code          string
	// Position is the ledger's last entry id when the snapshot was taken:
	// what moved since are the entries after it.
	Position int64
	Snapshot []Entry
	Counted  bool
	Lines    []Line
}

// Count is a cycle count of bins of one warehouse.
type Count struct {
	id          int64
	warehouseID int64
	status      Status
	blind       bool
	lockBins    bool
	// articles are the products a count by products covers (nil: every
	// product on its bins).
	articles  []int64
	createdAt time.Time
	user      string
	bins      []Bin // by code, then id

	loadedStatus Status
	changedBins  map[int64]bool
}

// Request is what a client asks to count, its bins resolved in the
// warehouse: the bins named, or the products named, or neither.
type Request struct {
	WarehouseID      int64
	BinLocationIDs   []int64
	ArticleDetailIDs []int64
	Blind, LockBins  bool
}

// CheckForm refuses a request that names bins and products together.
func CheckForm(binsNamed, articlesNamed bool) error {
	if binsNamed && articlesNamed {
		return errs.InvalidFields(errs.FieldError{Property: "articleDetailIds",
			Message: "cannot be given together with binLocations: a count covers the bins named, or the bins holding the products named"}).Breaks(Coverage)
	}
	return nil
}

// Holding is what storage found on a bin of the warehouse: one product's
// mapping, or one lot of it (Lot set) on a lot-tracked product. A
// lot-tracked mapping without lots is a Holding with Lot "" and Tracked.
type Holding struct {
	BinLocationID   int64
	BinCode         string
	ArticleDetailID int64
	Lot             string
	Tracked         bool
	Stock           int
}

// New opens a count of what req covers, with the snapshot of holdings
// (every mapping and lot on the bins concerned, as storage found them
// under the products' locks) at ledger position. codes names the bins
// named by the request (they may hold nothing).
//
// The forms: the bins named, all products on them; the bins holding a
// mapping of the products named, those products only; else every bin of
// the warehouse holding stock, the unknown bin location included.
func New(req Request, codes map[int64]string, holdings []Holding, position int64, now time.Time, user string) (*Count, error) {
	if err := CheckForm(len(req.BinLocationIDs) > 0, len(req.ArticleDetailIDs) > 0); err != nil {
		return nil, err
	}
	covered := map[int64]string{}
	var articles []int64
	switch {
	case len(req.BinLocationIDs) > 0:
		for _, id := range req.BinLocationIDs {
			code, ok := codes[id]
			if !ok {
				return nil, ErrBinNotInWarehouse(id, req.WarehouseID)
			}
			covered[id] = code
		}
	case len(req.ArticleDetailIDs) > 0:
		articles = slices.Clone(req.ArticleDetailIDs)
		slices.Sort(articles)
		articles = slices.Compact(articles)
		for _, h := range holdings {
			if _, named := slices.BinarySearch(articles, h.ArticleDetailID); named {
				covered[h.BinLocationID] = h.BinCode
			}
		}
	default:
		for _, h := range holdings {
			if h.Stock > 0 {
				covered[h.BinLocationID] = h.BinCode
			}
		}
	}
	// What a count covers stands on the property of its form: the bins
	// named, the products named, or the warehouse as a whole.
	form := "warehouse"
	switch {
	case len(req.BinLocationIDs) > 0:
		form = "binLocations"
	case len(req.ArticleDetailIDs) > 0:
		form = "articleDetailIds"
	}
	if len(covered) == 0 {
		return nil, errs.InvalidFields(errs.FieldError{Property: form,
			Message: "the count covers no bin location: nothing to count"}).Breaks(Coverage)
	}
	if len(covered) > MaxBins {
		return nil, errs.InvalidFields(errs.FieldError{Property: form,
			Message: fmt.Sprintf("the count covers %d bin locations, at most %d are allowed", len(covered), MaxBins)}).Breaks(Coverage)
	}
	c := &Count{
		warehouseID: req.WarehouseID, status: Open, blind: req.Blind, lockBins: req.LockBins,
		articles: articles, createdAt: now, user: user, changedBins: map[int64]bool{},
	}
	byBin := make(map[int64]*Bin, len(covered))
	for id, code := range covered {
		c.bins = append(c.bins, Bin{BinLocationID: id, Code: code, Position: position})
	}
	c.sortBins()
	for i := range c.bins {
		byBin[c.bins[i].BinLocationID] = &c.bins[i]
	}
	for _, h := range holdings {
		b := byBin[h.BinLocationID]
		if b == nil || (h.Tracked && h.Lot == "") || !c.Covers(h.ArticleDetailID) {
			continue
		}
		b.Snapshot = append(b.Snapshot, Entry{ArticleDetailID: h.ArticleDetailID, Lot: h.Lot, Stock: h.Stock})
	}
	for i := range c.bins {
		sortEntries(c.bins[i].Snapshot)
	}
	return c, nil
}

func (c *Count) sortBins() {
	slices.SortFunc(c.bins, func(a, b Bin) int {
		return cmp.Or(strings.Compare(a.Code, b.Code), cmp.Compare(a.BinLocationID, b.BinLocationID))
	})
}

func sortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), strings.Compare(a.Lot, b.Lot))
	})
}

// UnmarshalCountFromDatabase rebuilds a stored count. Only adapters call it.
func UnmarshalCountFromDatabase(id, warehouseID int64, status Status, blind, lockBins bool, articles []int64,
	createdAt time.Time, user string, bins []Bin) (*Count, error) {
	switch status {
	case Open, Applied, Cancelled:
	default:
		return nil, errs.E(errs.Internal, "stored count %d has an unknown status %q", id, status)
	}
	c := &Count{
		id: id, warehouseID: warehouseID, status: status, blind: blind, lockBins: lockBins,
		articles: slices.Clone(articles), createdAt: createdAt, user: user, bins: slices.Clone(bins),
		loadedStatus: status, changedBins: map[int64]bool{},
	}
	slices.Sort(c.articles)
	c.sortBins()
	for i := range c.bins {
		sortEntries(c.bins[i].Snapshot)
	}
	return c, nil
}

func (c *Count) ID() int64            { return c.id }
func (c *Count) WarehouseID() int64   { return c.warehouseID }
func (c *Count) Status() Status       { return c.status }
func (c *Count) Blind() bool          { return c.blind }
func (c *Count) LockBins() bool       { return c.lockBins }
func (c *Count) CreatedAt() time.Time { return c.createdAt }
func (c *Count) User() string         { return c.user }

// Articles are the products a count by products covers; nil when it
// covers every product on its bins.
func (c *Count) Articles() []int64 { return slices.Clone(c.articles) }

// Bins are the bins it covers, by code, as copies.
func (c *Count) Bins() []Bin {
	out := slices.Clone(c.bins)
	for i := range out {
		out[i].Snapshot = slices.Clone(out[i].Snapshot)
		out[i].Lines = slices.Clone(out[i].Lines)
	}
	return out
}

// BinIDs are the ids of its bins, ascending: the order in which a store
// claims them.
func (c *Count) BinIDs() []int64 {
	ids := make([]int64, len(c.bins))
	for i, b := range c.bins {
		ids[i] = b.BinLocationID
	}
	slices.Sort(ids)
	return ids
}

// Assign gives a new count the id storage chose.
func (c *Count) Assign(id int64) { c.id = id }

// Covers tells whether the count covers a product on its bins.
func (c *Count) Covers(article int64) bool {
	if c.articles == nil {
		return true
	}
	_, ok := slices.BinarySearch(c.articles, article)
	return ok
}

// ShowsBooks tells whether a view shows what the books expected and what
// moved since: not while a blind count is open, for anybody.
func (c *Count) ShowsBooks() bool { return !(c.blind && c.status == Open) }

// StatusChanged and ChangedBins are what Save writes: the status when it
// moved, the lines of the bins counted since the count was loaded.
func (c *Count) StatusChanged() bool { return c.status != c.loadedStatus }

func (c *Count) ChangedBins() []Bin {
	var out []Bin
	for _, b := range c.bins {
		if c.changedBins[b.BinLocationID] {
			out = append(out, b)
		}
	}
	return out
}

// Saved tells the count that what it handed out is stored.
func (c *Count) Saved() {
	c.loadedStatus = c.status
	clear(c.changedBins)
}

func (c *Count) bin(id int64) *Bin {
	for i := range c.bins {
		if c.bins[i].BinLocationID == id {
			return &c.bins[i]
		}
	}
	return nil
}

func (c *Count) open(doing string) error {
	if c.status != Open {
		return errs.Invalidf("count %d is %s: only an Open count is %s", c.id, c.status, doing).On("status").Breaks(NotOpen)
	}
	return nil
}

// Cancel drops an Open count: nothing is booked.
func (c *Count) Cancel() error {
	if err := c.open("cancelled"); err != nil {
		return err
	}
	c.status = Cancelled
	return nil
}

// Known tells what the catalogue knows of a product: whether it exists and
// whether it is lot-tracked.
type Known func(article int64) (exists, tracked bool)

// CountBin records what was found on a bin: lines of products (and lots)
// with their quantities (0..stock.MaxQuantity). Products and lots of the
// snapshot that are not named count 0; new ones may appear. Counting a bin
// again replaces its earlier count. A bin the count does not cover is not
// found. Every broken rule of the lines is reported at once.
func (c *Count) CountBin(binID int64, lines []Line, known Known) error {
	if err := c.open("counted"); err != nil {
		return err
	}
	b := c.bin(binID)
	if b == nil {
		return errs.NotFoundf("count %d does not cover bin location %d", c.id, binID)
	}
	var problems []errs.FieldError
	bad := func(i int, field, format string, args ...any) {
		problems = append(problems, errs.FieldError{Property: fmt.Sprintf("lines[%d].%s", i, field), Message: fmt.Sprintf(format, args...)})
	}
	seen := map[Entry]bool{}
	clean := make([]Line, len(lines))
	for i, l := range lines {
		l.Lot = strings.TrimSpace(l.Lot)
		clean[i] = l
		if l.Quantity < 0 || l.Quantity > stock.MaxQuantity {
			bad(i, "quantity", "must be an integer from 0 to %d", stock.MaxQuantity)
		}
		exists, tracked := known(l.ArticleDetailID)
		switch {
		case !exists:
			bad(i, "articleDetailId", "article detail %d does not exist", l.ArticleDetailID)
			continue
		case !c.Covers(l.ArticleDetailID):
			bad(i, "articleDetailId", "article detail %d is not counted by count %d", l.ArticleDetailID, c.id)
			continue
		case tracked && l.Lot == "":
			bad(i, "lot", "lot required: article detail %d is lot-tracked", l.ArticleDetailID)
			continue
		case !tracked && l.Lot != "":
			bad(i, "lot", "article detail %d is not lot-tracked: leave out lot", l.ArticleDetailID)
			continue
		}
		if tracked {
			if err := (stock.LotSpec{Number: l.Lot}).Validate(""); err != nil {
				bad(i, "lot.number", "%s", err.Error())
				continue
			}
		}
		k := Entry{ArticleDetailID: l.ArticleDetailID, Lot: l.Lot}
		if seen[k] {
			bad(i, "articleDetailId", "article detail %d%s is counted twice on this bin", l.ArticleDetailID, lotText(l.Lot))
		}
		seen[k] = true
	}
	if len(problems) > 0 {
		return errs.InvalidFields(problems...)
	}
	slices.SortFunc(clean, func(a, b Line) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), strings.Compare(a.Lot, b.Lot))
	})
	b.Lines, b.Counted = clean, true
	c.changedBins[binID] = true
	return nil
}

func lotText(lot string) string {
	if lot == "" {
		return ""
	}
	return fmt.Sprintf(" (lot %q)", lot)
}

// LineView is one product (and lot) of a bin as a count shows it: what the
// snapshot expected (0 for what was found and not in it), and what was
// counted (nil until the bin is counted; then 0 for what was not named).
type LineView struct {
	ArticleDetailID int64
	Lot             string
	Expected        int
	Counted         *int
}

// View lists the products and lots of a bin: those of the snapshot and
// those found, by product, then lot.
func (b Bin) View() []LineView {
	var out []LineView
	index := map[Entry]int{}
	for _, e := range b.Snapshot {
		index[Entry{ArticleDetailID: e.ArticleDetailID, Lot: e.Lot}] = len(out)
		out = append(out, LineView{ArticleDetailID: e.ArticleDetailID, Lot: e.Lot, Expected: e.Stock})
	}
	for _, l := range b.Lines {
		k := Entry{ArticleDetailID: l.ArticleDetailID, Lot: l.Lot}
		if _, ok := index[k]; !ok {
			index[k] = len(out)
			out = append(out, LineView{ArticleDetailID: l.ArticleDetailID, Lot: l.Lot})
		}
	}
	if b.Counted {
		for i := range out {
			zero := 0
			out[i].Counted = &zero
		}
		for _, l := range b.Lines {
			n := l.Quantity
			out[index[Entry{ArticleDetailID: l.ArticleDetailID, Lot: l.Lot}]].Counted = &n
		}
	}
	slices.SortFunc(out, func(a, b LineView) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), strings.Compare(a.Lot, b.Lot))
	})
	return out
}

// Difference is what applying a count books on one product (and lot) of
// a counted bin: counted − snapshot, never 0.
type Difference struct {
	BinLocationID   int64
	ArticleDetailID int64
	Lot             *stock.LotSpec
	Delta           int
}

// Differences are the count's differences, by bin id, product and lot.
// Bins not counted have none.
func (c *Count) Differences() []Difference {
	var out []Difference
	bins := slices.Clone(c.bins)
	slices.SortFunc(bins, func(a, b Bin) int { return cmp.Compare(a.BinLocationID, b.BinLocationID) })
	for _, b := range bins {
		if !b.Counted {
			continue
		}
		lots := map[Entry]*stock.LotSpec{}
		for _, l := range b.Lines {
			if l.Lot != "" {
				lots[Entry{ArticleDetailID: l.ArticleDetailID, Lot: l.Lot}] = &stock.LotSpec{Number: l.Lot, BestBefore: l.BestBefore, BestBeforeGiven: l.BestBeforeGiven}
			}
		}
		for _, v := range b.View() {
			delta := *v.Counted - v.Expected
			if delta == 0 {
				continue
			}
			d := Difference{BinLocationID: b.BinLocationID, ArticleDetailID: v.ArticleDetailID, Delta: delta}
			if v.Lot != "" {
				d.Lot = lots[Entry{ArticleDetailID: v.ArticleDetailID, Lot: v.Lot}]
				if d.Lot == nil {
					d.Lot = &stock.LotSpec{Number: v.Lot}
				}
			}
			out = append(out, d)
		}
	}
	return out
}
