package bunstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/ports"
)

// scans finds what a scanned text names (ports.ScanFinder).
type scans struct{ s *store }

func (s *store) Scans() ports.ScanFinder { return scans{s} }

// scanHitRow is one row of Named's union.
type scanHitRow struct {
	Kind       string `bun:"kind"`
	Rank       int    `bun:"rank"`
	ID         int64  `bun:"id"`
	Code       string `bun:"code"`
	ParentID   int64  `bun:"parent_id"`
	ParentCode string `bun:"parent_code"`
}

// Named asks every table in one statement, so that a scan that names one
// record costs one round trip. The numbers and codes compare ignoring case,
// as the lists' text filters do.
func (r scans) Named(ctx context.Context, text string, eans []string) ([]ports.ScanHit, error) {
	byEAN, args := "1 = 0", []any{text, text, text, text, text}
	if len(eans) > 0 {
		byEAN = "a.ean IN (?)"
		args = append(args, bun.List(eans))
	}
	query := `SELECT * FROM (
  SELECT 'product' AS kind, 0 AS rank, a.id, a.number AS code, 0 AS parent_id, '' AS parent_code
    FROM article_details AS a WHERE LOWER(a.number) = LOWER(?)
  UNION ALL
  SELECT 'binLocation', 1, b.id, b.code, w.id, w.code
    FROM bin_locations AS b JOIN warehouses AS w ON w.id = b.warehouse_id WHERE LOWER(b.code) = LOWER(?)
  UNION ALL
  SELECT 'order', 2, o.id, o.number, 0, '' FROM orders AS o WHERE LOWER(o.number) = LOWER(?)
  UNION ALL
  SELECT 'purchaseOrder', 3, p.id, p.number, 0, '' FROM purchase_orders AS p WHERE LOWER(p.number) = LOWER(?)
  UNION ALL
  SELECT 'lot', 4, lt.id, lt.number, a.id, a.number
    FROM lots AS lt JOIN article_details AS a ON a.id = lt.article_detail_id WHERE lt.number = ?
  UNION ALL
  SELECT 'ean', 5, a.id, a.number, 0, '' FROM article_details AS a WHERE ` + byEAN + `
) AS hits ORDER BY rank, code` + r.s.db.dialect.byteOrder() + `, id`
	var rows []scanHitRow
	if err := r.s.idb.NewRaw(query, args...).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := make([]ports.ScanHit, len(rows))
	for i, row := range rows {
		h := ports.ScanHit{Kind: ports.ScanHitKind(row.Kind), ID: row.ID, Code: row.Code, ParentID: row.ParentID, ParentCode: row.ParentCode}
		if row.Kind == "ean" {
			h.Kind, h.ByEAN = ports.HitProduct, true
		}
		out[i] = h
	}
	return out, nil
}
