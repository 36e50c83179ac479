package application

import (
	"context"
	"fmt"
	"slices"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/count"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// CountRequest is a count as a client asks for it: its warehouse, and the
// bins (by id or code) or the products to count, or neither (the whole
// warehouse). BinsGiven and ArticlesGiven tell a list sent empty from
// none sent.
type CountRequest struct {
	Warehouse        stock.WarehouseSpec
	BinLocations     []stock.BinLocationSpec
	BinsGiven        bool
	ArticleDetailIDs []int64
	ArticlesGiven    bool
	Blind, LockBins  bool
}

// CreateCount opens a count and records its snapshot: under the lock of
// every product on the bins concerned (so that no writer of them is half
// way), what lies on each bin per product and lot, and the ledger's
// position. A bin another Open count covers is a conflict.
func (a *App) CreateCount(ctx context.Context, req CountRequest) (int64, error) {
	if err := permit(ctx, access.WriteStock); err != nil {
		return 0, err
	}
	if err := count.CheckForm(req.BinsGiven, req.ArticlesGiven); err != nil {
		return 0, err
	}
	if len(req.BinLocations) > count.MaxBins {
		return 0, errs.InvalidFields(errs.FieldError{Property: "binLocations",
			Message: fmt.Sprintf("names %d bin locations, at most %d are allowed", len(req.BinLocations), count.MaxBins)}).Breaks(count.Coverage)
	}
	if len(req.ArticleDetailIDs) > count.MaxBins {
		return 0, errs.InvalidFields(errs.FieldError{Property: "articleDetailIds",
			Message: fmt.Sprintf("names %d article details, at most %d are allowed", len(req.ArticleDetailIDs), count.MaxBins)}).Breaks(count.Coverage)
	}
	if req.BinsGiven && len(req.BinLocations) == 0 {
		return 0, errs.InvalidFields(errs.FieldError{Property: "binLocations", Message: "must name at least one bin location"})
	}
	if req.ArticlesGiven && len(req.ArticleDetailIDs) == 0 {
		return 0, errs.InvalidFields(errs.FieldError{Property: "articleDetailIds", Message: "must name at least one article detail"})
	}
	var id int64
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		warehouseID, err := warehouseOf(ctx, s, req.Warehouse)
		if err != nil {
			return err
		}
		var bins []int64
		codes := map[int64]string{}
		if req.BinsGiven {
			if bins, codes, err = namedBins(ctx, s, warehouseID, req.BinLocations); err != nil {
				return err
			}
		}
		var articles []int64
		if req.ArticlesGiven {
			articles = slices.Clone(req.ArticleDetailIDs)
			slices.Sort(articles)
			articles = slices.Compact(articles)
			exist, err := s.ArticleDetails().Lock(ctx, articles)
			if err != nil {
				return err
			}
			var problems []errs.FieldError
			for _, a := range articles {
				if !exist[a] {
					problems = append(problems, errs.FieldError{Property: "articleDetailIds", Message: fmt.Sprintf("article detail %d does not exist", a)})
				}
			}
			if len(problems) > 0 {
				return errs.InvalidFields(problems...)
			}
		}
		c, err := a.openCount(ctx, s, count.Request{WarehouseID: warehouseID, BinLocationIDs: bins, ArticleDetailIDs: articles,
			Blind: req.Blind, LockBins: req.LockBins}, codes)
		if err != nil {
			return err
		}
		id = c.ID()
		return nil
	})
	return id, err
}

// openCount takes the snapshot of what req covers under the products'
// lock and stores the new count.
func (a *App) openCount(ctx context.Context, s ports.Store, req count.Request, codes map[int64]string) (*count.Count, error) {
	repo := s.Counts()
	if req.ArticleDetailIDs == nil {
		// A product new to a bin is on no lock the snapshot takes below.
		if err := repo.LockBins(ctx, req.WarehouseID, req.BinLocationIDs); err != nil {
			return nil, err
		}
	}
	products, err := repo.ArticlesOn(ctx, req.WarehouseID, req.BinLocationIDs, req.ArticleDetailIDs)
	if err != nil {
		return nil, err
	}
	if _, err := s.ArticleDetails().Lock(ctx, products); err != nil {
		return nil, err
	}
	holdings, position, err := repo.Snapshot(ctx, req.WarehouseID, req.BinLocationIDs, req.ArticleDetailIDs)
	if err != nil {
		return nil, err
	}
	c, err := count.New(req, codes, holdings, position, a.clock.Now(), userOf(ctx))
	if err != nil {
		return nil, err
	}
	if err := repo.Add(ctx, c); err != nil {
		return nil, err
	}
	return c, nil
}

// namedBins resolves the bins a request names by id or code in the
// warehouse, in the order named, each once; one that is not there is the
// client's mistake, named by its index.
func namedBins(ctx context.Context, s ports.Store, warehouseID int64, specs []stock.BinLocationSpec) ([]int64, map[int64]string, error) {
	var ids []int64
	var codes []string
	for _, b := range specs {
		if b.ID != 0 {
			ids = append(ids, b.ID)
		} else {
			codes = append(codes, b.Code)
		}
	}
	byID, byCode, err := s.Counts().BinsOf(ctx, warehouseID, ids, codes)
	if err != nil {
		return nil, nil, err
	}
	var out []int64
	named := map[int64]string{}
	var problems []errs.FieldError
	for i, b := range specs {
		property := fmt.Sprintf("binLocations[%d]", i)
		switch {
		case b.ID == 0 && b.Code == "":
			problems = append(problems, errs.FieldError{Property: property, Message: "must give the bin location's id or code"})
		case b.ID != 0:
			code, ok := byID[b.ID]
			if !ok || (b.Code != "" && b.Code != code) {
				problems = append(problems, errs.FieldError{Property: property, Message: fmt.Sprintf("bin location %d does not exist in warehouse %d", b.ID, warehouseID)})
				continue
			}
			if _, seen := named[b.ID]; !seen {
				out = append(out, b.ID)
			}
			named[b.ID] = code
		default:
			id, ok := byCode[b.Code]
			if !ok {
				problems = append(problems, errs.FieldError{Property: property, Message: fmt.Sprintf("bin location %q does not exist in warehouse %d", b.Code, warehouseID)})
				continue
			}
			if _, seen := named[id]; !seen {
				out = append(out, id)
			}
			named[id] = b.Code
		}
	}
	if len(problems) > 0 {
		return nil, nil, errs.InvalidFields(problems...)
	}
	return out, named, nil
}
