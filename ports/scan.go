package ports

import "context"

// ScanHitKind is the kind of record a scanned text names.
type ScanHitKind string

// The records a scan can name.
const (
	HitProduct       ScanHitKind = "product"
	HitBinLocation   ScanHitKind = "binLocation"
	HitOrder         ScanHitKind = "order"
	HitPurchaseOrder ScanHitKind = "purchaseOrder"
	HitLot           ScanHitKind = "lot"
)

// ScanHit is a record whose code or number a scanned text is, with what
// a page needs to name and open it.
type ScanHit struct {
	Kind ScanHitKind
	ID   int64
	// Code is the record's number or code as stored.
	Code string
	// ParentID and ParentCode are a bin location's warehouse and a lot's
	// product (0 and "" for the other kinds).
	ParentID   int64
	ParentCode string
	// ByEAN: a product found by its ean rather than its number.
	ByEAN bool
}

// ScanFinder finds what a scanned text names.
type ScanFinder interface {
	// Named is, in one statement, every record text names exactly:
	// products whose number is text, bin locations whose code is text (of
	// any warehouse), orders and purchase orders whose number is text,
	// each ignoring case; lots whose number is text as written; and
	// products whose ean is one of eans. The hits come by kind in the
	// order above, products by ean after those by number, then by code and
	// id; a product found both ways comes twice.
	Named(ctx context.Context, text string, eans []string) ([]ScanHit, error)
}
