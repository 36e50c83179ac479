package stock

import "github.com/shopstock/inventory/domain/errs"

// SetDefault makes a bin location the article's default bin location in its
// warehouse, clearing the previous default there, or with Default false stops
// it being the default. It creates the mapping with stock 0 when needed. The
// unknown bin location is never a default; asking it not to be one changes
// nothing.
type SetDefault struct {
	ArticleDetailID int64
	BinLocationID   int64
	Default         bool
}

func (d SetDefault) spec() LocationSpec {
	return LocationSpec{BinLocation: &BinLocationSpec{ID: d.BinLocationID}}
}

func (d SetDefault) Declare(s *Scope) { s.AddWarehouseOf(d.ArticleDetailID, d.spec()) }

func (d SetDefault) Run(ws *WorkingSet, _ Reference) error {
	at, err := ws.locate(d.ArticleDetailID, d.spec(), "")
	if err != nil {
		return err
	}
	b, _ := ws.bin(at.BinLocationID)
	return ws.setDefault(d.ArticleDetailID, b, d.Default)
}

func (ws *WorkingSet) setDefault(article int64, bin Bin, isDefault bool) error {
	if article <= 0 {
		return errs.Invalidf("article detail id must be positive, got %d", article).On("articleDetailId").Breaks(UnknownArticleDetail)
	}
	if bin.ID <= 0 || bin.WarehouseID <= 0 {
		return errs.E(errs.Internal, "bin location %q is not resolved", bin.Code)
	}
	if known, ok := ws.bin(bin.ID); ok && known.WarehouseID != bin.WarehouseID {
		return errs.E(errs.Internal, "bin location %d belongs to warehouse %d, not %d", bin.ID, known.WarehouseID, bin.WarehouseID)
	}
	if !ws.loaded[articleWarehouse{article, bin.WarehouseID}] {
		return errs.E(errs.Internal, "the stock of article detail %d in warehouse %d was not loaded for this working set", article, bin.WarehouseID)
	}
	isNull := bin.IsNull || ws.isNullBin(bin.ID)
	if isDefault && isNull {
		return errs.Invalidf("the unknown bin location of warehouse %d cannot be the default bin location of article detail %d",
			bin.WarehouseID, article).On("binLocation").Breaks(NullBinLocationNotDefault).
			About(errs.Subject{ArticleDetail: article, Warehouse: bin.WarehouseID, BinLocation: bin.ID})
	}
	if isNull {
		return nil
	}
	if _, ok := ws.bins[bin.ID]; !ok {
		ws.knowBin(bin)
	}
	if !isDefault {
		if m := ws.existing(article, bin.ID); m != nil && m.defaultMapping {
			ws.touch(m)
			m.defaultMapping = false
		}
		return nil
	}
	for m := range ws.inWarehouse(article, bin.WarehouseID) {
		if m.defaultMapping && m.binLocationID != bin.ID {
			ws.touch(m)
			m.defaultMapping = false
		}
	}
	if m := ws.mapping(article, bin.WarehouseID, bin.ID); !m.defaultMapping {
		ws.touch(m)
		m.defaultMapping = true
	}
	return nil
}
