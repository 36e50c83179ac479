package test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

func TestZZProbe6(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		if strings.HasPrefix(databaseURL, "postgres") {
			t.Skip()
		}
		f := poSetup(t, databaseURL)
		env := f.env
		f.put(t, f.art1, ohBin(f.binA), 3)
		f.put(t, f.art2, ohBin(f.binB), 4)
		imp := func(label, mode, key, ct, body string) {
			req, _ := http.NewRequest("PUT", env.URL+"/api/stock/import/"+mode+"/"+key, strings.NewReader(body))
			req.SetBasicAuth(apitest.User, apitest.Key)
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			r := env.DoRaw(t, req)
			t.Logf("import %s -> %s", label, r)
		}
		get := func(label, p string) {
			req, _ := http.NewRequest("GET", env.URL+p, nil)
			req.SetBasicAuth(apitest.User, apitest.Key)
			r := env.DoRaw(t, req)
			t.Logf("%s -> %d %s\n%s", label, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		get("export MAIN", "/api/stock.csv?warehouse=MAIN")
		get("export empty param", "/api/stock.csv?warehouse=")
		imp("8-col export header", "set", "a1", "text/csv", "warehouseCode,binLocationCode,articleDetailNumber,articleDetailId,stock,reservedStock,defaultMapping,lastStockTake\nMAIN,A-01,SKU-1,1,7,0,true,\n")
		imp("crlf+bom", "change", "a2", "text/csv", "\ufeffwarehouseCode,binLocationCode,articleDetailNumber,quantity\r\nMAIN,A-01,SKU-1,1\r\n")
		imp("crlf", "change", "a3", "text/csv", "warehouseCode,binLocationCode,articleDetailNumber,quantity\r\nMAIN,A-01,SKU-1,+1\r\n")
		imp("quoted", "change", "a4", "text/csv", "warehouseCode,binLocationCode,articleDetailNumber,quantity\n\"MAIN\",\"A-01\",\"SKU-1\",\"1\"\n")
		imp("set negative", "set", "a5", "text/csv", "warehouseCode,binLocationCode,articleDetailNumber,quantity\nMAIN,A-01,SKU-1,-1\n")
		imp("header with spaces", "set", "a6", "text/csv", "warehouseCode, binLocationCode,articleDetailNumber,quantity\nMAIN,A-01,SKU-1,1\n")
		imp("replay a4", "change", "a4", "text/csv", "warehouseCode,binLocationCode,articleDetailNumber,quantity\n\"MAIN\",\"A-01\",\"SKU-1\",\"1\"\n")
		imp("conflict a4", "set", "a4", "text/csv", "warehouseCode,binLocationCode,articleDetailNumber,quantity\n\"MAIN\",\"A-01\",\"SKU-1\",\"1\"\n")
		imp("bin of other warehouse", "set", "a7", "text/csv", "warehouseCode,binLocationCode,articleDetailNumber,quantity\nMAIN,B-01,SKU-1,1\n")
		imp("wrong header order", "set", "a8", "text/csv", "binLocationCode,warehouseCode,articleDetailNumber,quantity\nA-01,MAIN,SKU-1,1\n")
		get("export all", "/api/stock.csv")
	})
}
