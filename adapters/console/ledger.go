package console

import (
	"net/http"
	"strconv"

	"github.com/shopstock/inventory/ports"
)

// ledgerPerPage is how many ledger entries a product or bin page shows at
// once; older ones are a page further.
const ledgerPerPage = 15

// ledgerRow is a ledger entry as a worker reads it: which product, where,
// for which order and by whom.
type ledgerRow struct {
	ports.LedgerRecord
	Product, Warehouse, Bin string
	// Order is the number of the order a shipment or return belongs to.
	Order string
}

type ledgerData struct {
	Rows        []ledgerRow
	Page, Pages int
}

// ledger reads a page of the entries that match every filter, newest first (the
// page in the query's "ledger"), with the numbers and codes of what they
// name.
func (h *Handler) ledger(r *http.Request, filters ...ports.Filter) (ledgerData, error) {
	ctx := r.Context()
	d := ledgerData{Page: 1}
	if p, err := strconv.Atoi(r.URL.Query().Get("ledger")); err == nil && p > 1 && p < 1_000_000 {
		d.Page = p
	}
	p, err := h.app.StockLedgerEntries(ctx, ports.ListQuery{Start: (d.Page - 1) * ledgerPerPage, Limit: ledgerPerPage,
		Filters: filters, Sorts: []ports.Sort{{Property: "stockLedgerEntry.id", Descending: true}}})
	if err != nil {
		return d, err
	}
	d.Pages = max(1, (p.Total+ledgerPerPage-1)/ledgerPerPage)
	var articles, bins, warehouses, orders []any
	for _, e := range p.Items {
		articles = append(articles, e.ArticleDetailID)
		bins = append(bins, e.BinLocationID)
		warehouses = append(warehouses, e.WarehouseID)
		if e.Ref.OrderID != 0 {
			orders = append(orders, e.Ref.OrderID)
		}
	}
	number, binCode, whCode, orderNumber := map[int64]string{}, map[int64]string{}, map[int64]string{}, map[int64]string{}
	if len(p.Items) > 0 {
		a, err := h.app.ArticleDetails(ctx, ports.ListQuery{Limit: len(articles), Filters: []ports.Filter{
			{Property: "articleDetail.id", Expression: ports.ExprIn, Values: articles}}})
		if err != nil {
			return d, err
		}
		for _, x := range a.Items {
			number[x.Article.ID()] = x.Article.Number()
		}
		b, err := h.app.BinLocations(ctx, ports.ListQuery{Limit: len(bins), Filters: []ports.Filter{
			{Property: "binLocation.id", Expression: ports.ExprIn, Values: bins}}})
		if err != nil {
			return d, err
		}
		for _, x := range b.Items {
			binCode[x.ID()] = binName(x.Code())
		}
		w, err := h.app.Warehouses(ctx, ports.ListQuery{Limit: len(warehouses), Filters: []ports.Filter{
			{Property: "warehouse.id", Expression: ports.ExprIn, Values: warehouses}}})
		if err != nil {
			return d, err
		}
		for _, x := range w.Items {
			whCode[x.ID()] = x.Code()
		}
	}
	if len(orders) > 0 {
		o, err := h.app.Orders(ctx, ports.ListQuery{Limit: len(orders), Filters: []ports.Filter{
			{Property: "order.id", Expression: ports.ExprIn, Values: orders}}})
		if err != nil {
			return d, err
		}
		for _, x := range o.Items {
			orderNumber[x.ID()] = x.Number()
		}
	}
	d.Rows = make([]ledgerRow, len(p.Items))
	for i, e := range p.Items {
		d.Rows[i] = ledgerRow{LedgerRecord: e, Product: number[e.ArticleDetailID], Warehouse: whCode[e.WarehouseID],
			Bin: binCode[e.BinLocationID], Order: orderNumber[e.Ref.OrderID]}
	}
	return d, nil
}
