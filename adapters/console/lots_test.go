package console

import (
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// A form's lot: its number, and the best-before a date input sends; an
// empty number names none, and a date without a number is a mistake.
func TestAFormNamesALotByNumberAndBestBefore(t *testing.T) {
	for _, c := range []struct {
		number, date string
		want         string
		field, err   string
	}{
		{"L-7", "2027-03-31", "L-7 2027-03-31", "", ""},
		{"L-7", "", "L-7", "", ""},
		{"", "", "-", "", ""},
		{"", "2027-03-31", "-", "lot", "Enter or scan the lot number of this best-before date."},
		{"L-7", "31.03.2027", "L-7", "bestBefore", "Enter a date as YYYY-MM-DD."},
	} {
		f := &form{Values: map[string]string{"lot": c.number, "bestBefore": c.date}, Errors: map[string]string{}}
		lot := f.lot("lot", "bestBefore")
		got := "-"
		if lot != nil {
			got = lot.Number
			if lot.BestBeforeGiven {
				got += " " + lot.BestBefore.Format(stock.DateLayout)
			}
		}
		if got != c.want || (c.field != "" && f.Err(c.field) != c.err) || (c.field == "" && f.Failed()) {
			t.Errorf("%q %q: %s, errors %v; want %s, %s %q", c.number, c.date, got, f.Errors, c.want, c.field, c.err)
		}
	}
	// Goods out and moves have no date field: a date in the values is not
	// theirs.
	f := &form{Values: map[string]string{"lot": "L-7", "bestBefore": "2027-03-31"}, Errors: map[string]string{}}
	if lot := f.lot("lot", ""); lot == nil || lot.BestBeforeGiven || f.Failed() {
		t.Errorf("a lot without a date field: %+v, %v", lot, f.Errors)
	}
}

// A lot's errors go beside the lot fields; its date's beside the date.
func TestALotsErrorGoesBesideTheLotFields(t *testing.T) {
	in := locationFields("", "warehouse", "bin").with(lotFields)
	for property, want := range map[string]string{"lot": "lot", "lot.number": "lot", "lot.bestBefore": "bestBefore"} {
		f := &form{Values: map[string]string{}, Errors: map[string]string{}}
		f.place("the message", property, in, "quantity")
		if f.Err(want) != "the message" {
			t.Errorf("%q went to %v, want %s", property, f.Errors, want)
		}
	}
}

// A lot is marked expired from the day after its best-before date.
func TestLotRowsMarkExpiredLots(t *testing.T) {
	day := func(s string) *time.Time {
		d, _ := stock.ParseDate(s)
		return &d
	}
	now := time.Date(2027, 3, 1, 23, 59, 0, 0, time.UTC)
	rows := lotRows([]ports.MappingLot{
		{Number: "OLD", BestBefore: day("2027-02-28"), Stock: 2},
		{Number: "TODAY", BestBefore: day("2027-03-01"), Stock: 3, ReservedStock: 1},
		{Number: "NONE", Stock: 4},
	}, now)
	want := []lotRow{
		{Number: "OLD", BestBefore: "2027-02-28", Expired: true, Stock: 2},
		{Number: "TODAY", BestBefore: "2027-03-01", Stock: 3, ReservedStock: 1},
		{Number: "NONE", Stock: 4},
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("lot %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
}

func parsedHandler(t *testing.T) *Handler {
	t.Helper()
	h := &Handler{}
	if err := h.parseTemplates(); err != nil {
		t.Fatal(err)
	}
	return h
}

// The printable picking list names the lot of every pick, when any has
// one; a list without lots has no lot column.
func TestThePickingListNamesTheLotOfEveryPick(t *testing.T) {
	h := parsedHandler(t)
	o, err := order.New(order.NewOrder{Number: "1001", Details: []order.NewDetail{{ArticleDetailID: 1, Quantity: 4}}})
	if err != nil {
		t.Fatal(err)
	}
	render := func(d pickingData) string {
		var b strings.Builder
		if err := h.pages["picking"].ExecuteTemplate(&b, "content", view{Data: d}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	d := pickingData{Order: o, Lots: true, Picks: []pickRow{
		{Pick: order.Pick{BinLocationCode: "A-01", Quantity: 2, LotNumber: "L-7"}},
		{Pick: order.Pick{BinLocationCode: "A-01", Quantity: 1, LotNumber: "L-8"}},
		{Pick: order.Pick{BinLocationCode: "B-01", Quantity: 1}},
	}}
	page := render(d)
	if !strings.Contains(page, "<th>Lot</th>") || strings.Count(page, `class="code strong lot"`) != 3 ||
		!strings.Contains(page, ">L-7<") || !strings.Contains(page, ">L-8<") {
		t.Errorf("picking list with lots:\n%s", page)
	}
	d.Lots = false
	d.Picks = d.Picks[2:]
	if page := render(d); strings.Contains(page, "<th>Lot</th>") {
		t.Errorf("a picking list without lots has a lot column:\n%s", page)
	}
}

// The product page of a lot-tracked product lists the lots under each bin
// with their best-before, expired ones marked, and its goods-in and count
// ask for lot and best-before; goods out and moves for a lot only.
func TestTheProductPageShowsLotsAndAsksForThem(t *testing.T) {
	h := parsedHandler(t)
	a, err := catalog.NewArticleDetail(7, "FOOD-1", "Oat milk")
	if err != nil {
		t.Fatal(err)
	}
	render := func(d productData) string {
		var b strings.Builder
		v := view{Data: d, User: &application.ConsoleUser{Name: "op", Role: user.Operator}}
		if err := h.pages["product"].ExecuteTemplate(&b, "content", v); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	d := productData{Article: a, Forms: map[string]*form{}, LotTracked: true, LotNumbers: []string{"L-1", "L-2"},
		Lines: []ports.StockLine{{BinLocationID: 3, BinLocationCode: "A-01", WarehouseCode: "WH1", ArticleDetailID: 7, Stock: 5}},
		LotsAt: map[int64][]lotRow{3: {
			{Number: "L-1", BestBefore: "2027-02-28", Expired: true, Stock: 2},
			{Number: "L-2", Stock: 3, ReservedStock: 1},
		}}}
	for _, name := range productForms {
		d.Forms[name] = newForm()
	}
	d.Forms["in"].Values["lot"], d.Forms["in"].Values["bestBefore"] = "L-9", "2027-05-01"
	page := render(d)
	for _, want := range []string{
		`<tr class="lot expired">`, `Lot <span class="code">L-1</span> · <span class="hide-narrow">best before </span><span class="nowrap">2027-02-28</span> <span class="badge bad">expired</span>`,
		`<tr class="lot">`, `Lot <span class="code">L-2</span> · <span class="muted">no best-before</span>`,
		`<datalist id="lots"><option value="L-1"><option value="L-2"></datalist>`,
		`name="lot" value="L-9" list="lots"`, `name="bestBefore" value="2027-05-01" type="date"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	for form, fields := range map[string]int{"goods-in": 2, "goods-out": 1, "move": 1, "count": 2, "default": 0} {
		section := page[strings.Index(page, `id="`+form+`"`):]
		section = section[:strings.Index(section, "</section>")]
		if n := strings.Count(section, `name="lot"`) + strings.Count(section, `name="bestBefore"`); n != fields {
			t.Errorf("%s has %d lot fields, want %d", form, n, fields)
		}
	}
	// A product that is not lot-tracked has no lot fields.
	d.LotTracked, d.LotsAt, d.LotNumbers = false, nil, nil
	if page := render(d); strings.Contains(page, `name="lot"`) || strings.Contains(page, `class="lot`) || strings.Contains(page, "datalist") {
		t.Errorf("an untracked product's page asks for lots:\n%s", page)
	}
}
