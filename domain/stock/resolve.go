package stock

import (
	"fmt"

	"github.com/shopstock/inventory/domain/errs"
)

// locate checks the article detail of an operation and finds the location
// it names, as resolved when the working set was built. property prefixes
// messages (`source`, `destination`).
func (ws *WorkingSet) locate(article int64, spec LocationSpec, property string) (Location, error) {
	if err := spec.Validate(property); err != nil {
		return Location{}, err
	}
	if err := ws.checkArticle(article); err != nil {
		return Location{}, err
	}
	k := keyOf(spec)
	// An article declared at one location and acted on at another that
	// was declared for some other article passes here; check refuses it,
	// since its stock there was not loaded.
	r, ok := ws.resolved[k]
	if !ok || !ws.declared[article] {
		return Location{}, errs.E(errs.Internal, "article detail %d at %s was not declared in the scope this working set was loaded for", article, k.describe())
	}
	if r.err != nil {
		return Location{}, errs.Within(property, r.err)
	}
	return r.at, nil
}

// Resolve finds the location spec names among the locations loaded for the
// scope, for an operation that must know where it acts before it acts on
// each of its article details (an order shipment names one warehouse for
// all of them).
func (ws *WorkingSet) Resolve(spec LocationSpec) (Location, error) {
	if err := spec.Validate(""); err != nil {
		return Location{}, err
	}
	return ws.resolveKey(keyOf(spec))
}

func (ws *WorkingSet) checkArticle(article int64) error {
	if article <= 0 {
		return errs.Invalidf("articleDetailId must be a positive integer").On("articleDetailId").Breaks(UnknownArticleDetail)
	}
	if !ws.articles[article] {
		return errs.Invalidf("article detail %d does not exist", article).On("articleDetailId").Breaks(UnknownArticleDetail).
			About(errs.Subject{ArticleDetail: article})
	}
	return nil
}

func (k specKey) describe() string {
	if k.warehouse {
		return fmt.Sprintf("warehouse %d/%q", k.id, k.code)
	}
	return fmt.Sprintf("bin location %d/%q in warehouse %d/%q", k.id, k.code, k.binWarehouseID, k.binWarehouse)
}

// warehouse finds a warehouse by spec; id and code, when both given, must
// agree. property is the request's property that names it by id and
// byCode the one that names it by code.
func (ws *WorkingSet) warehouse(s WarehouseSpec, property, byCode string) (KnownWarehouse, error) {
	if s.ID != 0 {
		w, ok := ws.warehouses[s.ID]
		if !ok {
			return w, errs.Invalidf("warehouse %d does not exist", s.ID).On(property).Breaks(UnknownWarehouse).
				About(errs.Subject{Warehouse: s.ID})
		}
		if s.Code != "" && s.Code != w.Code {
			return w, errs.Invalidf("warehouse id %d and code %q name different warehouses", s.ID, s.Code).On(byCode).
				Breaks(LocationMismatch).About(errs.Subject{Warehouse: s.ID})
		}
		return w, nil
	}
	w, ok := ws.byCode[s.Code]
	if !ok {
		return w, errs.Invalidf("warehouse with code %q does not exist", s.Code).On(byCode).Breaks(UnknownWarehouse)
	}
	return w, nil
}

// resolveKey turns a valid spec, as a key, into a location with its label.
func (ws *WorkingSet) resolveKey(k specKey) (Location, error) {
	if k.warehouse {
		w, err := ws.warehouse(WarehouseSpec{ID: k.id, Code: k.code}, "warehouse", "warehouse")
		if err != nil {
			return Location{}, err
		}
		return Location{WarehouseID: w.ID, Label: warehouseLabel(w.Code)}, nil
	}
	var in KnownWarehouse
	if k.binWarehouseID != 0 || k.binWarehouse != "" {
		w, err := ws.warehouse(WarehouseSpec{ID: k.binWarehouseID, Code: k.binWarehouse}, "binLocation.warehouseId", "binLocation.warehouseCode")
		if err != nil {
			return Location{}, err
		}
		in = w
	}
	var b Bin
	if k.id != 0 {
		var ok bool
		if b, ok = ws.bin(k.id); !ok {
			return Location{}, errs.Invalidf("bin location %d does not exist", k.id).On("binLocation").Breaks(UnknownBinLocation).
				About(errs.Subject{BinLocation: k.id})
		}
		if k.code != "" && k.code != b.Code {
			return Location{}, errs.Invalidf("bin location id %d and code %q name different bin locations", k.id, k.code).
				On("binLocation").Breaks(LocationMismatch).About(errs.Subject{BinLocation: k.id})
		}
		if (k.binWarehouseID != 0 || k.binWarehouse != "") && in.ID != b.WarehouseID {
			return Location{}, errs.Invalidf("bin location %d is not in warehouse %q", k.id, in.Code).
				On("binLocation").Breaks(LocationMismatch).About(errs.Subject{BinLocation: k.id, Warehouse: in.ID})
		}
	} else {
		var ok bool
		if b, ok = ws.binCodes[in.ID][k.code]; !ok {
			return Location{}, errs.Invalidf("bin location with code %q does not exist in warehouse %q", k.code, in.Code).
				On("binLocation").Breaks(UnknownBinLocation).About(errs.Subject{Warehouse: in.ID})
		}
	}
	w, ok := ws.warehouses[b.WarehouseID]
	return Location{WarehouseID: b.WarehouseID, BinLocationID: b.ID, Label: binLabel(b.Code, w.Code, ok)}, nil
}
