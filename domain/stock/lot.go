package stock

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/shopstock/inventory/domain/calendar"
	"github.com/shopstock/inventory/domain/code"
	"github.com/shopstock/inventory/domain/errs"
)

// The rules of lots an error can break.
const (
	// LotRequired: stock in of a lot-tracked product names no lot.
	LotRequired errs.Code = "lot_required"
	// LotNotTracked: a lot named for a product that is not lot-tracked.
	LotNotTracked errs.Code = "lot_not_tracked"
	// LotBestBeforeMismatch: an existing lot named with another best-before
	// date than the one it has.
	LotBestBeforeMismatch errs.Code = "lot_best_before_mismatch"
	// LotExpired: a shipment or a picking list names an expired lot.
	LotExpired errs.Code = "lot_expired"
	// InvalidLot: a lot number or date that breaks the text rules.
	InvalidLot errs.Code = "invalid_lot"
)

// DateLayout is how best-before dates are written: calendar.Layout.
const DateLayout = calendar.Layout

// MaxLotNumber is the longest lot number, in characters.
const MaxLotNumber = 64

// LotSpec is the lot an operation names: `{"number", "bestBefore"?}`.
type LotSpec struct {
	Number string
	// BestBefore is the date given (UTC midnight), nil for null or absent;
	// BestBeforeGiven tells null (true) from absent (false).
	BestBefore      *time.Time
	BestBeforeGiven bool
}

// Validate checks the number's text rules: 1 to 64 characters after
// trimming, of valid UTF-8 without control or bidirectional override
// characters (code.CheckCode). property names the
// lot in messages (`lot`).
func (s LotSpec) Validate(property string) error {
	_, err := s.number(property)
	return err
}

// number is the lot's number, trimmed, once it keeps the text rules.
func (s LotSpec) number(property string) (string, error) {
	n := strings.TrimSpace(s.Number)
	err := code.CheckCode(n, MaxLotNumber)
	if err == nil && n == "" {
		err = errors.New("must not be empty")
	}
	if err != nil {
		return "", errs.Invalidf("lot number %q %s", s.Number, err.Error()).On(join(property, "number")).Breaks(InvalidLot)
	}
	return n, nil
}

func join(property, field string) string {
	if property == "" {
		return field
	}
	return property + "." + field
}

// ParseDate reads a best-before date, `YYYY-MM-DD`, as UTC midnight: the
// one date parser, calendar.Parse.
func ParseDate(s string) (time.Time, error) { return calendar.Parse(s) }

// Lot is a lot (batch) of an article detail: its number, unique per article
// detail, and its best-before date (nil: none), fixed by the first stock
// that named it.
type Lot struct {
	ArticleDetailID int64
	Number          string
	BestBefore      *time.Time
	// ExpiryCounted says its pieces count in the kept expiredStock totals:
	// from its creation when it was created expired, else from when its
	// expiry was recorded (WorkingSet.RecordExpiry).
	ExpiryCounted bool
}

// ExpiryCutoff is the one rule of expiry: at now, a lot whose best-before
// date lies before the cut-off, the UTC day of now, is expired. A lot is
// so expired from the day after its best-before date. Storage is handed
// this day to find expired lots; it never decides "today" itself.
func ExpiryCutoff(now time.Time) time.Time { return calendar.Today(now) }

// ExpiredOn tells whether the lot is expired at now (ExpiryCutoff). A lot
// without a date never expires.
func (l Lot) ExpiredOn(now time.Time) bool {
	return l.BestBefore != nil && l.BestBefore.Before(ExpiryCutoff(now))
}

// BestBeforeText is the date as written, "" when there is none.
func (l Lot) BestBeforeText() string {
	if l.BestBefore == nil {
		return ""
	}
	return calendar.Format(*l.BestBefore)
}

// CompareFEFO orders lots first expiring first out: best-before ascending,
// lots without a date last, then number in byte order. Lists of lots use
// the same order.
func CompareFEFO(a, b Lot) int {
	switch {
	case a.BestBefore == nil && b.BestBefore != nil:
		return 1
	case a.BestBefore != nil && b.BestBefore == nil:
		return -1
	case a.BestBefore != nil:
		if c := a.BestBefore.Compare(*b.BestBefore); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.Number, b.Number)
}

// LotStock is what one lot holds on one mapping.
type LotStock struct {
	Number        string
	Stock         int
	ReservedStock int
}

// Lots are what the mapping holds per lot (empty for a product that is not
// lot-tracked), in the order they were first stocked there: a copy.
func (m *Mapping) Lots() []LotStock { return slices.Clone(m.lots) }

// RestoreLots gives a stored mapping its stored lots. Only adapters call it.
// The lots must add up to the mapping's stock and reservedStock, and each
// keep 0 ≤ reserved ≤ stock; else the store is broken (Internal).
func (m *Mapping) RestoreLots(lots []LotStock) error {
	stock, reserved := 0, 0
	for _, l := range lots {
		if l.Number == "" || l.Stock < 0 || l.ReservedStock < 0 || l.ReservedStock > l.Stock {
			return errs.E(errs.Internal, "stored lot %q of mapping %d breaks 0 ≤ reserved ≤ stock: stock %d, reserved %d",
				l.Number, m.id, l.Stock, l.ReservedStock)
		}
		stock += l.Stock
		reserved += l.ReservedStock
	}
	if stock != m.stock || reserved != m.reservedStock {
		return errs.E(errs.Internal, "stored lots of mapping %d hold %d pieces, %d reserved, but the mapping %d, %d reserved",
			m.id, stock, reserved, m.stock, m.reservedStock)
	}
	m.lots = slices.Clone(lots)
	return nil
}

// lot is the index of number in the mapping's lots, -1 when it holds none.
func (m *Mapping) lot(number string) int {
	return slices.IndexFunc(m.lots, func(l LotStock) bool { return l.Number == number })
}

// lotAvailable is what of a lot on the mapping is unreserved.
func (m *Mapping) lotAvailable(number string) int {
	if i := m.lot(number); i >= 0 {
		return Unreserved(m.lots[i].Stock, m.lots[i].ReservedStock)
	}
	return 0
}

// lotStock is a lot's stock on the mapping.
func (m *Mapping) lotStock(number string) int {
	if i := m.lot(number); i >= 0 {
		return m.lots[i].Stock
	}
	return 0
}

// addLot changes a lot's stock and reserved pieces on the mapping (the
// mapping's own figures are changed by the caller) and drops lots that hold
// nothing.
func (m *Mapping) addLot(number string, stock, reserved int) {
	i := m.lot(number)
	if i < 0 {
		m.lots = append(m.lots, LotStock{Number: number})
		i = len(m.lots) - 1
	}
	m.lots[i].Stock += stock
	m.lots[i].ReservedStock += reserved
	if m.lots[i].Stock == 0 && m.lots[i].ReservedStock == 0 {
		m.lots = slices.Delete(m.lots, i, i+1)
	}
}

type lotKey struct {
	article int64
	number  string
}

// KnowLots tells the working set which of its article details are
// lot-tracked and every lot they have. Storage calls it before Loaded: the
// lots' expiry decides what of the loaded stock counts as expired.
func (ws *WorkingSet) KnowLots(tracked []int64, lots []Lot) {
	for _, id := range tracked {
		ws.tracked[id] = true
	}
	for _, l := range lots {
		ws.lots[lotKey{l.ArticleDetailID, l.Number}] = l
	}
}

// LotTracked tells whether an article detail of the working set is
// lot-tracked.
func (ws *WorkingSet) LotTracked(article int64) bool { return ws.tracked[article] }

// Lot is a lot of an article detail the working set knows.
func (ws *WorkingSet) Lot(article int64, number string) (Lot, bool) {
	l, ok := ws.lots[lotKey{article, number}]
	return l, ok
}

// LotChanges are the lots to write back: those created and those whose
// expiry was counted, ordered by article detail and number.
func (ws *WorkingSet) LotChanges() []Lot {
	out := make([]Lot, 0, len(ws.changedLots))
	for k := range ws.changedLots {
		out = append(out, ws.lots[k])
	}
	slices.SortFunc(out, func(a, b Lot) int {
		return cmp.Or(cmp.Compare(a.ArticleDetailID, b.ArticleDetailID), cmp.Compare(a.Number, b.Number))
	})
	return out
}

// setLot records a new or changed lot, to be taken back with the running
// operation when it fails.
func (ws *WorkingSet) setLot(l Lot) {
	k := lotKey{l.ArticleDetailID, l.Number}
	before, existed := ws.lots[k]
	wasChanged := ws.changedLots[k]
	ws.undo = append(ws.undo, undo{back: func() {
		if existed {
			ws.lots[k] = before
		} else {
			delete(ws.lots, k)
		}
		if !wasChanged {
			delete(ws.changedLots, k)
		}
	}})
	ws.lots[k] = l
	ws.changedLots[k] = true
}

// countedExpired is what of a mapping's stock lies in lots whose expiry is
// counted.
func (ws *WorkingSet) countedExpired(m *Mapping) int {
	n := 0
	for _, l := range m.lots {
		if ws.lots[lotKey{m.articleDetailID, l.Number}].ExpiryCounted {
			n += l.Stock
		}
	}
	return n
}

// LotNumber is the number a valid lot spec names, "" for nil.
func (ws *WorkingSet) LotNumber(spec *LotSpec) string {
	if spec == nil {
		return ""
	}
	n, _ := spec.number("")
	return n
}

// lotChoice says which lots a stock-out may take from a product's stock.
type lotChoice struct {
	tracked bool   // the product is lot-tracked; else there are no lots
	only    string // the lot named; "" takes lots first expiring first out
	expired bool   // expired lots may be taken (a write-off, a quarantine move)
}

// takes tells whether the choice may take pieces of lot number.
func (ws *WorkingSet) takes(article int64, number string, c lotChoice) bool {
	if c.only != "" {
		return number == c.only
	}
	return c.expired || !ws.lots[lotKey{article, number}].ExpiredOn(ws.now)
}

// LotExpired tells whether a lot of an article detail is expired on the
// working set's day.
func (ws *WorkingSet) LotExpired(article int64, number string) bool {
	return ws.lots[lotKey{article, number}].ExpiredOn(ws.now)
}

// lotOut is the choice of a stock-out that may name a lot: on a product
// that is not lot-tracked no lot may be named; a named lot must exist and
// keep its best-before date. expired says whether expired lots may go
// (a write-off or a move may take them, a shipment or a picking list
// never).
func (ws *WorkingSet) lotOut(article int64, spec *LotSpec, expired bool) (lotChoice, error) {
	c := lotChoice{tracked: ws.tracked[article], expired: expired}
	if spec == nil {
		return c, nil
	}
	l, err := ws.namedLot(article, spec)
	if err != nil {
		return c, err
	}
	if _, ok := ws.lots[lotKey{article, l.Number}]; !ok {
		return c, errs.Invalidf("article detail %d has no lot %q", article, l.Number).On("lot.number").
			Breaks(InsufficientStock).About(errs.Subject{ArticleDetail: article})
	}
	if !expired && l.ExpiredOn(ws.now) {
		return c, errs.Invalidf("lot %q of article detail %d expired on %s", l.Number, article, ws.expiryDay(l)).On("lot").
			Breaks(LotExpired).About(errs.Subject{ArticleDetail: article})
	}
	c.only = l.Number
	return c, nil
}

// expiryDay is the first day a dated lot is expired.
func (ws *WorkingSet) expiryDay(l Lot) string {
	return calendar.Format(l.BestBefore.AddDate(0, 0, 1))
}

// lotIn is the lot pieces coming in belong to: none on a product that is
// not lot-tracked (naming one fails), a named one on a lot-tracked product
// (naming none fails). A lot named for the first time is created, with
// the best-before date given, when create is set (stock really comes in).
func (ws *WorkingSet) lotIn(article int64, spec *LotSpec, create bool) (string, error) {
	if !ws.tracked[article] {
		if spec != nil {
			_, err := ws.namedLot(article, spec)
			return "", err
		}
		return "", nil
	}
	if spec == nil {
		return "", errs.Invalidf("lot required: article detail %d is lot-tracked, so stock coming in must name its lot", article).
			On("lot").Breaks(LotRequired).About(errs.Subject{ArticleDetail: article})
	}
	l, err := ws.namedLot(article, spec)
	if err != nil {
		return "", err
	}
	if _, ok := ws.lots[lotKey{article, l.Number}]; !ok && create {
		ws.setLot(l)
	}
	return l.Number, nil
}

// namedLot is the lot spec names for a lot-tracked article: the existing
// lot of that number, whose best-before date the spec must not contradict,
// or a new one with the spec's date (counted as expired from the start
// when it is already past).
func (ws *WorkingSet) namedLot(article int64, spec *LotSpec) (Lot, error) {
	if !ws.tracked[article] {
		return Lot{}, errs.Invalidf("article detail %d is not lot-tracked: leave out lot", article).On("lot").
			Breaks(LotNotTracked).About(errs.Subject{ArticleDetail: article})
	}
	number, err := spec.number("lot")
	if err != nil {
		return Lot{}, err
	}
	l, ok := ws.lots[lotKey{article, number}]
	if !ok {
		l = Lot{ArticleDetailID: article, Number: number, BestBefore: spec.BestBefore}
		l.ExpiryCounted = l.ExpiredOn(ws.now)
		return l, nil
	}
	if spec.BestBeforeGiven && !sameDate(l.BestBefore, spec.BestBefore) {
		return Lot{}, errs.Invalidf("lot %q of article detail %d has %s, not %s", number, article, describeDate(l.BestBefore), describeDate(spec.BestBefore)).
			On("lot.bestBefore").Breaks(LotBestBeforeMismatch).About(errs.Subject{ArticleDetail: article})
	}
	return l, nil
}

func sameDate(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

func describeDate(d *time.Time) string {
	if d == nil {
		return "no best-before date"
	}
	return "best-before " + calendar.Format(*d)
}

// RecordExpiry counts the expiry of the article detail's lots that are
// expired on the working set's day and not counted yet: from now on their
// pieces count in expiredStock (TotalsChanges). It returns the lots it
// counted, in FEFO order. Their holds are their holders' to release (see
// order.ReleaseExpired). Every mapping of the article detail must be loaded
// (its warehouses whole), or the totals would miss the pieces of those
// not loaded.
func (ws *WorkingSet) RecordExpiry(article int64) []Lot {
	var counted []Lot
	for k, l := range ws.lots {
		if k.article == article && !l.ExpiryCounted && l.ExpiredOn(ws.now) {
			counted = append(counted, l)
		}
	}
	slices.SortFunc(counted, CompareFEFO)
	for i := range counted {
		counted[i].ExpiryCounted = true
		ws.setLot(counted[i])
	}
	if len(counted) == 0 {
		return nil
	}
	for m := range ws.all() {
		if m.articleDetailID == article && len(m.lots) > 0 {
			for _, l := range counted {
				if m.lot(l.Number) >= 0 {
					ws.touch(m)
					break
				}
			}
		}
	}
	return counted
}
