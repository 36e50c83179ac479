package application

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/ports"
)

// scanRecord is a record the scan store knows, with the ean a product
// is found by.
type scanRecord struct {
	hit ports.ScanHit
	ean string
}

// scanStore answers Named as storage does, from its records, and lists
// nothing in part; every other repository is left out, so that a use case
// reaching for one panics.
type scanStore struct {
	ports.Store
	records []scanRecord
	// asked are the texts and eans Named was asked for.
	asked []string
	eans  [][]string
	// lists counts the list queries of the matches in part.
	lists int
}

func (s *scanStore) Scans() ports.ScanFinder { return scanFinder{s} }
func (s *scanStore) ArticleDetails() ports.ArticleDetailRepository {
	return emptyArticles{s: s}
}
func (s *scanStore) BinLocations() ports.BinLocationRepository { return emptyBins{s: s} }
func (s *scanStore) Orders() ports.OrderRepository             { return emptyOrders{s: s} }
func (s *scanStore) Lots() ports.LotRepository                 { return numberedLots{s: s} }

type scanFinder struct{ s *scanStore }

func (f scanFinder) Named(_ context.Context, text string, eans []string) ([]ports.ScanHit, error) {
	f.s.asked, f.s.eans = append(f.s.asked, text), append(f.s.eans, eans)
	var out []ports.ScanHit
	for _, r := range f.s.records {
		switch {
		case r.hit.Kind == ports.HitLot && r.hit.Code == text,
			r.hit.Kind != ports.HitLot && strings.EqualFold(r.hit.Code, text):
			out = append(out, r.hit)
		}
	}
	for _, r := range f.s.records {
		if r.ean != "" && slices.Contains(eans, r.ean) {
			h := r.hit
			h.ByEAN = true
			out = append(out, h)
		}
	}
	return out, nil
}

type emptyArticles struct {
	ports.ArticleDetailRepository
	s *scanStore
}

func (r emptyArticles) List(context.Context, ports.ListQuery) (ports.Page[*catalog.ArticleDetail], error) {
	r.s.lists++
	return ports.Page[*catalog.ArticleDetail]{}, nil
}

type emptyBins struct {
	ports.BinLocationRepository
	s *scanStore
}

func (r emptyBins) List(context.Context, ports.ListQuery) (ports.Page[*warehouse.BinLocation], error) {
	r.s.lists++
	return ports.Page[*warehouse.BinLocation]{}, nil
}

type emptyOrders struct {
	ports.OrderRepository
	s *scanStore
}

func (r emptyOrders) List(context.Context, ports.ListQuery) (ports.Page[*order.Order], error) {
	r.s.lists++
	return ports.Page[*order.Order]{}, nil
}

// numberedLots finds the store's lots by number.
type numberedLots struct {
	ports.LotRepository
	s *scanStore
}

func (r numberedLots) Numbered(_ context.Context, number string) ([]ports.LotView, error) {
	r.s.lists++
	var out []ports.LotView
	for _, l := range r.s.records {
		if l.hit.Kind == ports.HitLot && l.hit.Code == number {
			out = append(out, ports.LotView{ID: l.hit.ID, Lot: stock.Lot{ArticleDetailID: l.hit.ParentID, Number: number}})
		}
	}
	return out, nil
}

// readOnly runs every read on one store; nothing may write.
type readOnly struct{ s ports.Store }

func (u readOnly) Read(ctx context.Context, fn func(context.Context, ports.Store) error) error {
	return fn(ctx, u.s)
}
func (u readOnly) Write(context.Context, func(context.Context, ports.Store) error) error {
	panic("resolving a scan writes nothing")
}

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

var (
	scanProduct = ports.ScanHit{Kind: ports.HitProduct, ID: 7, Code: "PEN-1"}
	scanMilk    = ports.ScanHit{Kind: ports.HitProduct, ID: 9, Code: "MILK-1"}
	scanBinMain = ports.ScanHit{Kind: ports.HitBinLocation, ID: 21, Code: "A-01", ParentID: 1, ParentCode: "MAIN"}
	scanBinWest = ports.ScanHit{Kind: ports.HitBinLocation, ID: 31, Code: "A-01", ParentID: 2, ParentCode: "WEST"}
	scanLot     = ports.ScanHit{Kind: ports.HitLot, ID: 4, Code: "L-42", ParentID: 9, ParentCode: "MILK-1"}
	scanOrder   = ports.ScanHit{Kind: ports.HitOrder, ID: 300, Code: "10001"}
	scanPO      = ports.ScanHit{Kind: ports.HitPurchaseOrder, ID: 400, Code: "PO-7"}
)

// resolve resolves scan as an operator over a store that knows records.
func resolve(t *testing.T, scan string, records ...scanRecord) (ScanTarget, *scanStore) {
	t.Helper()
	s := &scanStore{records: records}
	app := &App{uow: readOnly{s}, clock: fixedClock{time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}}
	ctx := WithPrincipal(context.Background(), Principal{Name: "clerk", Role: user.Operator})
	got, err := app.ResolveScan(ctx, scan)
	if err != nil {
		t.Fatal(err)
	}
	return got, s
}

func rec(h ports.ScanHit) scanRecord { return scanRecord{hit: h} }

// A scan that names one record is one query and lists nothing.
func named(t *testing.T, got ScanTarget, s *scanStore, kind ScanKind) {
	t.Helper()
	if got.Kind != kind {
		t.Fatalf("kind %s, want %s (%+v)", got.Kind, kind, got)
	}
	if len(s.asked) != 1 || s.lists != 0 || got.Matches != nil || got.Problem != "" {
		t.Errorf("asked %v, %d lists, matches %+v, problem %q: want one query and nothing more", s.asked, s.lists, got.Matches, got.Problem)
	}
}

func TestAProductNumberNamesTheProduct(t *testing.T) {
	got, s := resolve(t, "pen-1", rec(scanProduct), rec(scanBinMain))
	named(t, got, s, ScanProduct)
	if *got.Product != scanProduct {
		t.Errorf("product %+v", got.Product)
	}
}

func TestAGTINNamesItsProductInAnySpelling(t *testing.T) {
	got, s := resolve(t, "]E04006381333931", scanRecord{hit: scanProduct, ean: "04006381333931"})
	named(t, got, s, ScanProduct)
	if got.Product.ID != scanProduct.ID || !got.Product.ByEAN {
		t.Errorf("product %+v", got.Product)
	}
	if s.asked[0] != "4006381333931" || !slices.Contains(s.eans[0], "04006381333931") {
		t.Errorf("asked for %q with eans %v: the text without its identifier, the GTIN's spellings", s.asked[0], s.eans[0])
	}
}

func TestABinCodeNamesItsBinInEveryWarehouse(t *testing.T) {
	got, s := resolve(t, "]C0A-01", rec(scanBinMain), rec(scanOrder))
	named(t, got, s, ScanBinLocations)
	if len(got.Bins) != 1 || got.Bins[0] != scanBinMain {
		t.Errorf("bins %+v", got.Bins)
	}

	got, s = resolve(t, "A-01", rec(scanBinMain), rec(scanBinWest))
	if got.Kind != ScanBinLocations || len(got.Bins) != 2 || got.Bins[1].ParentCode != "WEST" {
		t.Fatalf("%+v", got)
	}
	if got.Matches == nil || s.lists == 0 {
		t.Errorf("bins of one code in two warehouses are listed with what the code matches: %+v", got)
	}
}

func TestALotNumberNamesTheLotAndItsProduct(t *testing.T) {
	got, s := resolve(t, "L-42", rec(scanLot))
	named(t, got, s, ScanLot)
	if *got.Lot != scanLot || got.Product.ID != scanMilk.ID || got.Product.Code != "MILK-1" {
		t.Errorf("lot %+v of %+v", got.Lot, got.Product)
	}
	// Lot numbers are as written.
	if got, _ := resolve(t, "l-42", rec(scanLot)); got.Kind != ScanNothing {
		t.Errorf("l-42 names %s", got.Kind)
	}
	// A lot of a product that is named itself is that product.
	lotOfPen := ports.ScanHit{Kind: ports.HitLot, ID: 5, Code: "PEN-1", ParentID: scanProduct.ID, ParentCode: "PEN-1"}
	if got, _ := resolve(t, "PEN-1", rec(scanProduct), rec(lotOfPen)); got.Kind != ScanProduct {
		t.Errorf("a product and its own lot: %s", got.Kind)
	}
	// Lots of one number of two products are two things.
	lotOfPen.Code = "L-42"
	got, _ = resolve(t, "L-42", rec(scanLot), rec(lotOfPen))
	if got.Kind != ScanSeveral || len(got.Matches.Lots) != 2 || got.Matches.Lots[1].Product != "PEN-1" {
		t.Errorf("lots of two products are listed with their products: %+v", got)
	}
}

func TestAnOrderNumberNamesTheOrder(t *testing.T) {
	got, s := resolve(t, "10001", rec(scanOrder))
	named(t, got, s, ScanOrder)
	if *got.Order != scanOrder {
		t.Errorf("order %+v", got.Order)
	}
}

func TestAPurchaseOrderNumberNamesThePurchaseOrder(t *testing.T) {
	got, s := resolve(t, "po-7", rec(scanPO))
	named(t, got, s, ScanPurchaseOrder)
	if *got.PurchaseOrder != scanPO {
		t.Errorf("purchase order %+v", got.PurchaseOrder)
	}
}

func TestAGS1ScanNamesGoodsOfItsProduct(t *testing.T) {
	milk := scanRecord{hit: scanMilk, ean: "04006381333931"}
	for _, scan := range []string{
		"]C1" + "0104006381333931" + "17270500" + "10L-42",
		"(01)04006381333931(17)270500(10)L-42",
		"0104006381333931" + "17270500" + "10L-42",
	} {
		got, s := resolve(t, scan, milk)
		named(t, got, s, ScanGoods)
		want := barcode.ElementString{GTIN: "04006381333931", Lot: "L-42", BestBefore: time.Date(2027, 5, 31, 0, 0, 0, 0, time.UTC)}
		if *got.Goods != want || got.Product.ID != scanMilk.ID {
			t.Errorf("%q: goods %+v of %+v", scan, got.Goods, got.Product)
		}
	}
}

func TestAGS1ScanOfAnUnknownGTINSaysSo(t *testing.T) {
	got, _ := resolve(t, "(01)09501101530003(10)X", rec(scanProduct))
	if got.Kind != ScanNothing || got.Problem != "No product has the GTIN 09501101530003." || got.Matches == nil {
		t.Errorf("%+v", got)
	}
	// Digits that are a GTIN may be meant as something else's number, and
	// say nothing of GTINs when they are.
	got, _ = resolve(t, "96385074", rec(ports.ScanHit{Kind: ports.HitOrder, ID: 1, Code: "96385074"}))
	if got.Kind != ScanOrder || got.Problem != "" {
		t.Errorf("%+v", got)
	}
	got, _ = resolve(t, "96385074")
	if got.Kind != ScanNothing || got.Problem != "No product has the GTIN 96385074." {
		t.Errorf("%+v", got)
	}
}

func TestAMalformedGS1ScanSaysWhy(t *testing.T) {
	for scan, says := range map[string]string{
		"]C1" + "0104006381333931" + "17271300":             "not a GS1 element string: AI (17) must be a date YYMMDD",
		"0104006381333931" + "17271300":                     "not a GS1 element string: AI (17) must be a date YYMMDD",
		"0104006381333931" + "10" + "L-1234567890123456789": "not a GS1 element string: AI (10) must be a lot number",
		"(01)04006381333932":                                "not a GS1 element string: AI (01) must be a GTIN",
	} {
		got, s := resolve(t, scan, scanRecord{hit: scanMilk, ean: "04006381333931"})
		if got.Kind != ScanMalformed || !strings.HasPrefix(got.Problem, says) || !strings.HasSuffix(got.Problem, ".") {
			t.Errorf("%q: %s %q, want one saying %q", scan, got.Kind, got.Problem, says)
		}
		if got.Matches == nil || s.lists == 0 {
			t.Errorf("%q: what the text matches in part is listed beside the problem", scan)
		}
	}
}

func TestAScanThatNamesNothingOrSeveralThingsIsListed(t *testing.T) {
	got, s := resolve(t, "nothing-like-it", rec(scanProduct))
	if got.Kind != ScanNothing || got.Problem != "" || got.Matches == nil || s.lists != 3 {
		t.Errorf("%+v after %d lists", got, s.lists)
	}
	product := ports.ScanHit{Kind: ports.HitProduct, ID: 8, Code: "10001"}
	got, _ = resolve(t, "10001", rec(product), rec(scanOrder))
	if got.Kind != ScanSeveral || got.Matches == nil || got.Product != nil || got.Order != nil {
		t.Errorf("a product and an order of one number: %+v", got)
	}
}

func TestResolvingAScanReadsStockOrdersAndPurchaseOrders(t *testing.T) {
	app := &App{}
	if _, err := app.ResolveScan(context.Background(), "PEN-1"); errs.KindOf(err) != errs.Forbidden {
		t.Errorf("without a caller: %v", err)
	}
	s := &scanStore{records: []scanRecord{rec(scanProduct)}}
	app = &App{uow: readOnly{s}, clock: fixedClock{time.Now()}}
	reader := WithPrincipal(context.Background(), Principal{Name: "r", Role: user.Reader})
	if got, err := app.ResolveScan(reader, "PEN-1"); err != nil || got.Kind != ScanProduct {
		t.Errorf("a reader: %+v %v", got, err)
	}
}
