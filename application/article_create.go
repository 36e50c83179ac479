package application

import (
	"context"

	"github.com/shopstock/inventory/domain/access"
	"github.com/shopstock/inventory/domain/catalog"
	"github.com/shopstock/inventory/ports"
)

// ArticleDetailInput is a product as the shop pushes it in: id 0 lets
// storage assign one, reorder point 0 is none, ean "" is none.
type ArticleDetailInput struct {
	ID           int64
	Number, Name string
	ReorderPoint int
	EAN          string
	LotTracked   bool
}

// CreateArticleDetail stores a product the shop pushes in, with the shop's
// id when it gives one, and its reorder point (0: none).
func (a *App) CreateArticleDetail(ctx context.Context, id int64, number, name string, reorderPoint int) (int64, error) {
	return a.CreateArticleDetailWith(ctx, ArticleDetailInput{ID: id, Number: number, Name: name, ReorderPoint: reorderPoint})
}

// CreateArticleDetailWith stores a product with every property the shop
// may give it.
func (a *App) CreateArticleDetailWith(ctx context.Context, in ArticleDetailInput) (int64, error) {
	if err := permit(ctx, access.ManageArticles); err != nil {
		return 0, err
	}
	art, err := catalog.NewArticleDetail(in.ID, in.Number, in.Name)
	if err != nil {
		return 0, err
	}
	if err := art.SetReorderPoint(in.ReorderPoint); err != nil {
		return 0, err
	}
	if err := art.SetEAN(in.EAN); err != nil {
		return 0, err
	}
	if err := art.SetLotTracked(in.LotTracked, 0, 0); err != nil { // a new product holds nothing
		return 0, err
	}
	err = a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		repo := s.ArticleDetails()
		if art.ID() != 0 {
			taken, err := repo.IDTaken(ctx, art.ID())
			if err != nil {
				return err
			}
			if taken {
				return catalog.ErrIDTaken(art.ID())
			}
		}
		if err := checkArticleNumber(ctx, repo, art.Number(), art.ID()); err != nil {
			return err
		}
		if err := checkArticleEAN(ctx, repo, art); err != nil {
			return err
		}
		return repo.Add(ctx, art)
	})
	return art.ID(), err
}

func checkArticleNumber(ctx context.Context, repo ports.ArticleDetailRepository, number string, exceptID int64) error {
	taken, err := repo.NumberTaken(ctx, number, exceptID)
	if err != nil {
		return err
	}
	if taken {
		return catalog.ErrNumberTaken(number)
	}
	return nil
}

// checkArticleEAN refuses a GTIN another product has, compared as GTINs:
// 04006381333931 is 4006381333931.
func checkArticleEAN(ctx context.Context, repo ports.ArticleDetailRepository, art *catalog.ArticleDetail) error {
	if art.EAN() == "" {
		return nil
	}
	taken, err := repo.EANTaken(ctx, art.EAN(), art.ID())
	if err != nil {
		return err
	}
	if taken {
		return catalog.ErrEANTaken(art.EAN().String())
	}
	return nil
}
