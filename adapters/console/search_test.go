package console

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopstock/inventory/domain/barcode"
)

// A GS1 scan's lot and best-before reach the goods-in form's values by way
// of the page the search opens, for the form's lot fields to show.
func TestAScansLotAndBestBeforeReachTheGoodsInForm(t *testing.T) {
	es := barcode.ElementString{GTIN: "04006381333931", Lot: "L&1/2", BestBefore: time.Date(2027, 2, 28, 0, 0, 0, 0, time.UTC)}
	to := goodsInAfterScan(7, es)
	if to != "/console/products/7?bestBefore=2027-02-28&lot=L%261%2F2#goods-in" {
		t.Fatalf("the scan opens %s", to)
	}
	goods := newForm()
	sent, _, _ := strings.Cut(to, "#") // browsers keep the fragment to themselves
	goodsInFromScan(httptest.NewRequest("GET", sent, nil), goods)
	if goods.Val("lot") != "L&1/2" || goods.Val("bestBefore") != "2027-02-28" {
		t.Errorf("goods-in values %v", goods.Values)
	}
	if got := goodsInAfterScan(7, barcode.ElementString{GTIN: es.GTIN}); got != "/console/products/7#goods-in" {
		t.Errorf("a scan without lot and date opens %s", got)
	}
}
