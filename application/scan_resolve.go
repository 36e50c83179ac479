package application

import (
	"context"
	"fmt"
	"slices"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/barcode"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/ports"
)

// ScanKind is what a scan names.
type ScanKind string

const (
	// ScanNothing: the scan names no record; Matches holds what its text
	// matches in part, if anything.
	ScanNothing ScanKind = "nothing"
	// ScanMalformed: the scan is meant as a GS1 element string and is none;
	// Problem says why, Matches holds what its text matches in part.
	ScanMalformed ScanKind = "malformed"
	// ScanSeveral: the scan names records of several kinds, or several
	// products; Matches lists them among what its text matches in part.
	ScanSeveral ScanKind = "several"
	// ScanProduct: the scan is a product's number or GTIN (Product).
	ScanProduct ScanKind = "product"
	// ScanBinLocations: the scan is a bin location's code (Bins: one, or
	// the bins of that code in several warehouses, when Matches lists them
	// too).
	ScanBinLocations ScanKind = "binLocations"
	// ScanLot: the scan is a lot's number (Lot, of Product).
	ScanLot ScanKind = "lot"
	// ScanOrder: the scan is an order's number (Order).
	ScanOrder ScanKind = "order"
	// ScanPurchaseOrder: the scan is a purchase order's number
	// (PurchaseOrder).
	ScanPurchaseOrder ScanKind = "purchaseOrder"
	// ScanGoods: the scan is a GS1 element string (Goods: its GTIN, lot and
	// best-before) of the trade item Product.
	ScanGoods ScanKind = "goods"
)

// scanMatchLimit is how many records of each kind Matches lists.
const scanMatchLimit = 25

// ScanTarget is what a scan means.
type ScanTarget struct {
	Kind ScanKind
	// Text is what was scanned, without a symbology identifier.
	Text string
	// Problem is what to tell the person: why a malformed scan is none,
	// or that no product has the GTIN scanned.
	Problem       string
	Product       *ports.ScanHit
	Bins          []ports.ScanHit
	Lot           *ports.ScanHit
	Order         *ports.ScanHit
	PurchaseOrder *ports.ScanHit
	Goods         *barcode.ElementString
	// Matches is filled when the scan does not name one record.
	Matches *ScanMatches
}

// ScanMatches are the records a scanned text matches in part: products by
// number or name (those of its GTIN first), bin locations by code, orders
// by number, and the lots numbered exactly so.
type ScanMatches struct {
	Products []ArticleStock
	Bins     []ports.ScanHit
	Orders   []*order.Order
	Lots     []ScanLotMatch
}

// Empty tells whether nothing matched.
func (m *ScanMatches) Empty() bool {
	return m == nil || len(m.Products)+len(m.Bins)+len(m.Orders)+len(m.Lots) == 0
}

// ScanLotMatch is a lot with its product's number.
type ScanLotMatch struct {
	LotRead
	Product string
}

// ResolveScan tells what a scanner sent (or a person typed) names: a GTIN
// or a GS1 element string read by barcode.ReadScan, else the exact number
// or code of a product, bin location, order, purchase order or lot. A scan
// that names one record costs one query; the matches in part are read only
// for a scan that does not.
func (a *App) ResolveScan(ctx context.Context, text string) (t ScanTarget, err error) {
	for _, need := range []access.Action{access.ReadStock, access.ReadOrders, access.ReadPurchaseOrders} {
		if err := permit(ctx, need); err != nil {
			return t, err
		}
	}
	scan, malformed := a.ReadScan(text)
	var eans []string
	if scan.GTIN != "" {
		eans = scan.GTIN.Spellings()
	}
	var eanFound bool
	err = a.uow.Read(ctx, func(ctx context.Context, s ports.Store) error {
		hits, err := s.Scans().Named(ctx, scan.Text, eans)
		if err != nil {
			return err
		}
		if len(hits) == 0 && malformed == nil && scan.GS1 == nil {
			if hits, err = labelledBin(ctx, s, scan.Text); err != nil {
				return err
			}
		}
		eanFound = slices.ContainsFunc(hits, func(h ports.ScanHit) bool { return h.ByEAN })
		t = targetOf(scan, malformed, hits)
		if t.Kind == ScanNothing || t.Kind == ScanMalformed || t.Kind == ScanSeveral || len(t.Bins) > 1 {
			t.Matches, err = scanMatches(ctx, s, scan.Text, hits)
		}
		return err
	})
	if err != nil {
		return ScanTarget{}, err
	}
	// Digits that happen to be a GTIN may be meant as the number of
	// something else; a GS1 scan is meant as a product.
	if t.Kind != ScanMalformed && scan.GTIN != "" && !eanFound && (scan.GS1 != nil || t.Matches != nil && t.Matches.Empty()) {
		t.Problem = fmt.Sprintf("No product has the GTIN %s.", scan.GTIN)
	}
	return t, nil
}

// targetOf decides what the records a scan names exactly make of it. A
// lot counts as its product, unless that product is named itself.
func targetOf(scan barcode.Scan, malformed error, hits []ports.ScanHit) ScanTarget {
	t := ScanTarget{Kind: ScanNothing, Text: scan.Text}
	if malformed != nil {
		t.Kind, t.Problem = ScanMalformed, malformed.Error()+"."
		return t
	}
	var products, byEAN, bins, lots, orders, purchaseOrders []ports.ScanHit
	named := map[int64]bool{}
	for _, h := range hits {
		switch h.Kind {
		case ports.HitProduct:
			if h.ByEAN {
				byEAN = append(byEAN, h)
			}
			if !named[h.ID] {
				named[h.ID] = true
				products = append(products, h)
			}
		case ports.HitBinLocation:
			bins = append(bins, h)
		case ports.HitOrder:
			orders = append(orders, h)
		case ports.HitPurchaseOrder:
			purchaseOrders = append(purchaseOrders, h)
		case ports.HitLot:
			lots = append(lots, h)
		}
	}
	if scan.GS1 != nil {
		// A GS1 scan is goods arriving: only its GTIN counts.
		switch len(byEAN) {
		case 0:
		case 1:
			t.Kind, t.Product, t.Goods = ScanGoods, &byEAN[0], scan.GS1
		default:
			t.Kind = ScanSeveral
		}
		return t
	}
	// Lots count by their products: lots of one product open it.
	var lot *ports.ScanHit
	lotProducts := map[int64]bool{}
	for i, l := range lots {
		if !named[l.ParentID] && !lotProducts[l.ParentID] {
			lotProducts[l.ParentID] = true
			lot = &lots[i]
		}
	}
	switch n := len(products) + len(lotProducts) + len(bins) + len(orders) + len(purchaseOrders); {
	case n == 0:
	case len(products) == n && n == 1:
		t.Kind, t.Product = ScanProduct, &products[0]
	case len(lotProducts) == n && n == 1:
		t.Kind, t.Lot = ScanLot, lot
		t.Product = &ports.ScanHit{Kind: ports.HitProduct, ID: lot.ParentID, Code: lot.ParentCode}
	case len(bins) == n:
		t.Kind, t.Bins = ScanBinLocations, bins
	case len(orders) == n && n == 1:
		t.Kind, t.Order = ScanOrder, &orders[0]
	case len(purchaseOrders) == n && n == 1:
		t.Kind, t.PurchaseOrder = ScanPurchaseOrder, &purchaseOrders[0]
	default:
		t.Kind = ScanSeveral
	}
	return t
}

// scanMatches reads what text matches in part: the products of the GTIN
// scanned (from hits) and those whose number or name holds text, with
// their figures; bin locations and orders whose code or number holds text;
// and the lots numbered text (from hits).
func scanMatches(ctx context.Context, s ports.Store, text string, hits []ports.ScanHit) (*ScanMatches, error) {
	m := &ScanMatches{}
	like := []any{"%" + text + "%"}
	var articles []*catalog.ArticleDetail
	byEAN := map[int64]bool{}
	lots := false
	for _, h := range hits {
		switch {
		case h.Kind == ports.HitProduct && h.ByEAN:
			a, err := s.ArticleDetails().Get(ctx, h.ID)
			if err != nil {
				return nil, err
			}
			articles, byEAN[h.ID] = append(articles, a), true
		case h.Kind == ports.HitLot:
			lots = true
		}
	}
	products, err := s.ArticleDetails().List(ctx, ports.ListQuery{Limit: scanMatchLimit, Filters: []ports.Filter{
		{Property: "articleDetail.number", Expression: ports.ExprLike, Values: like},
		{Property: "articleDetail.name", Expression: ports.ExprLike, Values: like, Or: true},
	}, Sorts: []ports.Sort{{Property: "articleDetail.number"}}})
	if err != nil {
		return nil, err
	}
	for _, p := range products.Items {
		if !byEAN[p.ID()] {
			articles = append(articles, p)
		}
	}
	if len(articles) > 0 {
		if m.Products, err = articleFigures(ctx, s, articles); err != nil {
			return nil, err
		}
	}
	bins, err := s.BinLocations().List(ctx, ports.ListQuery{Limit: scanMatchLimit, Filters: []ports.Filter{
		{Property: "binLocation.code", Expression: ports.ExprLike, Values: like},
	}, Sorts: []ports.Sort{{Property: "binLocation.code"}}})
	if err != nil {
		return nil, err
	}
	if len(bins.Items) > 0 {
		warehouses, err := s.Warehouses().List(ctx, ports.ListQuery{Limit: limit.DefaultListLimit})
		if err != nil {
			return nil, err
		}
		code := map[int64]string{}
		for _, w := range warehouses.Items {
			code[w.ID()] = w.Code()
		}
		for _, b := range bins.Items {
			m.Bins = append(m.Bins, ports.ScanHit{Kind: ports.HitBinLocation, ID: b.ID(), Code: b.Code(),
				ParentID: b.WarehouseID(), ParentCode: code[b.WarehouseID()]})
		}
	}
	orders, err := s.Orders().List(ctx, ports.ListQuery{Limit: scanMatchLimit, Filters: []ports.Filter{
		{Property: "order.number", Expression: ports.ExprLike, Values: like},
	}, Sorts: []ports.Sort{{Property: "order.number"}}})
	if err != nil {
		return nil, err
	}
	m.Orders = orders.Items
	if lots {
		// Lot numbers are found as they are written: a scanned lot is its
		// whole number.
		views, err := s.Lots().Numbered(ctx, text)
		if err != nil {
			return nil, err
		}
		number := map[int64]string{}
		for _, h := range hits {
			if h.Kind == ports.HitLot {
				number[h.ParentID] = h.ParentCode
			}
		}
		for _, l := range lotReads(ports.Page[ports.LotView]{Items: views}).Items {
			m.Lots = append(m.Lots, ScanLotMatch{LotRead: l, Product: number[l.Lot.ArticleDetailID]})
		}
	}
	return m, nil
}
