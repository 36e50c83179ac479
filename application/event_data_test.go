package application

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/stock"
)

// stockChangedOf builds the payload newEvent gets for stock.changed.
func stockChangedOf(number, name, code, key string, id, orderID int64, n int) stockChangedData {
	ean := ""
	if n%2 == 0 {
		ean = "4006381333931"
	}
	article := catalog.UnmarshalArticleDetailFromDatabase(id, number, name, (n%7+7)%7, ean, n%3 == 0)
	warehouses := []stock.WarehouseStock{
		{WarehouseID: 2, WarehouseCode: code, StockAvailableForSale: true, Stock: n, ReservedStock: n / 3, Expired: n / 4},
		{WarehouseID: 1, WarehouseCode: code + "-b", Stock: -n, ReservedStock: 0, Expired: n % 2},
	}
	f := ArticleStock{Article: article, Figures: stock.FiguresOf(warehouses[:(n%3+3)%3], n%5)}
	return stockChangedData{
		ArticleDetailData: ArticleDetailDataOf(f),
		Cause:             causeData{Type: "stock/change", IdempotencyKey: nullIfZero(key), OrderID: nullIfZero(orderID)},
	}
}

// FuzzStockChangedJSON holds the hand-spelt JSON of stock.changed to what
// encoding/json makes of the same payload, byte for byte: the feed and the
// webhooks must not change with how it is produced.
func FuzzStockChangedJSON(f *testing.F) {
	for _, s := range []string{"", "SKU-1", `quote " back \ slash`, "<b>&amp;</b>", "tab\tnew\nline\x00", "\u2028\u2029", "ümlaut 商品 😀", "bad \xff utf-8", "\x7f",
		"a&b", "a<b", "a>b", `a"b`, `a\b`, "a\x01b", "a\x1fb", "é", "\xff"} {
		f.Add(s, s+"x", s, s, int64(42), int64(7), 10)
	}
	f.Add("A", "B", "W", "", int64(1), int64(0), 0)
	f.Add("A", "B", "W", "k", int64(-5), int64(-1), -13)
	f.Fuzz(func(t *testing.T, number, name, code, key string, id, orderID int64, n int) {
		data := stockChangedOf(number, name, code, key, id, orderID, n)
		want, err := json.Marshal(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := data.appendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("hand-spelt:\n%s\nencoding/json:\n%s", got, want)
		}
		if got := newEvent("stock.changed", data).Data; !bytes.Equal(got, want) {
			t.Fatalf("newEvent:\n%s\nencoding/json:\n%s", got, want)
		}
	})
}

// TestStockChangedJSONWithoutWarehouses: a payload built without
// ArticleDetailDataOf may hold a nil list; encoding/json spells it null.
func TestStockChangedJSONWithoutWarehouses(t *testing.T) {
	data := stockChangedData{ArticleDetailData: ArticleDetailData{ID: 1, Number: "A"}, Cause: causeData{Type: event.CauseImport}}
	want, _ := json.Marshal(data)
	if got := data.appendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("got %s, want %s", got, want)
	}
	if !strings.Contains(string(want), `"warehouseStocks":null`) {
		t.Fatalf("the case is not what it claims: %s", want)
	}
}
