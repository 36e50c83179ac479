package application

import (
	"context"
	"slices"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/ports"
)

// locationNeed is a product at a location an operation will act on.
type locationNeed struct {
	article int64
	spec    stock.LocationSpec
}

// stockSession is the stock a batch works on, loaded set-based: every
// location resolved in two queries, the products locked in id order, and
// exactly the mappings the operations need locked in one more.
type stockSession struct {
	dir      *stock.Directory
	inv      *stock.Inventory
	articles map[int64]bool
}

func openStock(ctx context.Context, s ports.Store, now time.Time, needs []locationNeed) (*stockSession, error) {
	var wants ports.LocationWants
	var articleIDs []int64
	for _, n := range needs {
		if n.spec.Validate("") == nil {
			wants.Add(n.spec)
		}
		if n.article > 0 {
			articleIDs = append(articleIDs, n.article)
		}
	}
	wants.Compact()
	warehouses, bins, err := s.Stock().Locations(ctx, wants)
	if err != nil {
		return nil, err
	}
	dir := stock.NewDirectory(warehouses, bins)
	slices.Sort(articleIDs)
	articles, err := s.ArticleDetails().Lock(ctx, slices.Compact(articleIDs))
	if err != nil {
		return nil, err
	}
	var mw ports.MappingWants
	for _, n := range needs {
		if !articles[n.article] || n.spec.Validate("") != nil {
			continue
		}
		loc, err := dir.Resolve(n.spec)
		if err != nil {
			continue
		}
		if loc.IsWarehouse() {
			mw.InWarehouse = append(mw.InWarehouse, ports.ArticleWarehouse{ArticleDetailID: n.article, WarehouseID: loc.WarehouseID})
		} else {
			mw.OnBin = append(mw.OnBin, ports.ArticleBin{ArticleDetailID: n.article, BinLocationID: loc.BinLocationID})
		}
	}
	mw.Compact()
	mappings, mappingBins, err := s.Stock().LockMappings(ctx, mw)
	if err != nil {
		return nil, err
	}
	all := append(bins, mappingBins...)
	for _, w := range warehouses {
		if b, ok := dir.NullBin(w.ID); ok {
			all = append(all, b)
		}
	}
	return &stockSession{dir: dir, inv: stock.NewInventory(all, mappings, now), articles: articles}, nil
}

// locate checks the product and resolves the location of one operation.
func (ss *stockSession) locate(article int64, spec stock.LocationSpec, property string) (stock.Location, error) {
	if err := spec.Validate(property); err != nil {
		return stock.Location{}, err
	}
	if err := ss.checkArticle(article); err != nil {
		return stock.Location{}, err
	}
	return ss.dir.Resolve(spec)
}

func (ss *stockSession) checkArticle(article int64) error {
	if article <= 0 {
		return errs.Invalidf("articleDetailId must be a positive integer")
	}
	if !ss.articles[article] {
		return errs.Invalidf("article detail %d does not exist", article)
	}
	return nil
}

// save writes what the operations changed: mappings and ledger in bulk.
func (ss *stockSession) save(ctx context.Context, s ports.Store) error {
	upserted, removed, entries := ss.inv.Changes()
	if err := s.Stock().Apply(ctx, upserted, removed); err != nil {
		return err
	}
	return s.Ledger().Append(ctx, entries)
}
