package application

import (
	"context"
	"fmt"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/event"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// PurchaseOrderRequest is a purchase order as a client sends it: the
// order's fields, and its warehouse by id or code.
type PurchaseOrderRequest struct {
	purchase.NewOrder
	Warehouse stock.WarehouseSpec
}

// CreatePurchaseOrder stores an Open purchase order. Its warehouse and
// every line's article detail must exist.
func (a *App) CreatePurchaseOrder(ctx context.Context, req PurchaseOrderRequest) (int64, error) {
	if err := permit(ctx, access.ManagePurchaseOrders); err != nil {
		return 0, err
	}
	ctx = WithCause(ctx, event.Cause{Type: event.CausePurchaseOrdersCreate})
	var id int64
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		p := req.NewOrder
		var err error
		if p.WarehouseID, err = warehouseOf(ctx, s, req.Warehouse); err != nil {
			return err
		}
		o, err := purchase.New(p, a.clock.Now())
		if err != nil {
			return err
		}
		repo := s.PurchaseOrders()
		doc := newDocument{
			id: o.ID(), idTaken: repo.IDTaken, errIDTaken: purchase.ErrIDTaken,
			number: o.Number(), numberTaken: repo.NumberTaken, errNumber: purchase.ErrNumberTaken,
			items: "lines", itemIDsTaken: repo.LineIDsTaken, errItemIDTaken: purchase.ErrLineIDTaken,
		}
		for _, l := range o.Lines() {
			doc.itemIDs, doc.articleIDs = append(doc.itemIDs, l.ID()), append(doc.articleIDs, l.ArticleDetailID())
		}
		if err := doc.check(ctx, s); err != nil {
			return err
		}
		if err := repo.Add(ctx, o); err != nil {
			return err
		}
		id = o.ID()
		return nil
	})
	return id, err
}

// warehouseOf is the id of the warehouse spec names by id or code (both:
// they must agree); one that names none is a client's mistake on
// "warehouse".
func warehouseOf(ctx context.Context, s ports.Store, spec stock.WarehouseSpec) (int64, error) {
	var filters []ports.Filter
	if spec.ID != 0 {
		filters = append(filters, ports.Filter{Property: "warehouse.id", Expression: ports.ExprEqual, Values: []any{spec.ID}})
	}
	if spec.Code != "" {
		filters = append(filters, ports.Filter{Property: "warehouse.code", Expression: ports.ExprEqual, Values: []any{spec.Code}})
	}
	if len(filters) == 0 {
		return 0, errs.InvalidFields(errs.FieldError{Property: "warehouse", Message: "must give the warehouse's id or code"})
	}
	p, err := s.Warehouses().List(ctx, ports.ListQuery{Limit: 1, Filters: filters})
	if err != nil {
		return 0, err
	}
	if len(p.Items) == 0 {
		msg := fmt.Sprintf("warehouse %d does not exist", spec.ID)
		switch {
		case spec.ID != 0 && spec.Code != "":
			msg = fmt.Sprintf("no warehouse has id %d and code %q", spec.ID, spec.Code)
		case spec.Code != "":
			msg = fmt.Sprintf("warehouse with code %q does not exist", spec.Code)
		}
		return 0, errs.InvalidFields(errs.FieldError{Property: "warehouse", Message: msg}).Breaks(stock.UnknownWarehouse)
	}
	return p.Items[0].ID(), nil
}
