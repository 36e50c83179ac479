package bunstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/ports"
)

type transferRow struct {
	bun.BaseModel `bun:"table:transfers,alias:tf"`

	ID                     int64     `bun:"id,pk"`
	Number                 string    `bun:"number"`
	SourceWarehouseID      int64     `bun:"source_warehouse_id"`
	DestinationWarehouseID int64     `bun:"destination_warehouse_id"`
	Status                 string    `bun:"status"`
	CreatedAt              time.Time `bun:"created_at"`
}

type transferLineRow struct {
	bun.BaseModel `bun:"table:transfer_lines,alias:tfl"`

	ID              int64  `bun:"id,pk"`
	TransferID      int64  `bun:"transfer_id"`
	Position        int    `bun:"position"`
	ArticleDetailID int64  `bun:"article_detail_id"`
	LotNumber       string `bun:"lot_number"`
	Quantity        int    `bun:"quantity"`
}

type transferLineLotRow struct {
	bun.BaseModel `bun:"table:transfer_line_lots,alias:tll"`

	TransferLineID int64  `bun:"transfer_line_id,pk"`
	LotNumber      string `bun:"lot_number,pk"`
	Position       int    `bun:"position"`
	Shipped        int    `bun:"shipped"`
	Received       int    `bun:"received"`
	Returned       int    `bun:"returned"`
	Lost           int    `bun:"lost"`
}

type transferMovementRow struct {
	bun.BaseModel `bun:"table:transfer_movements,alias:tm"`

	ID         int64     `bun:"id,pk,autoincrement"`
	TransferID int64     `bun:"transfer_id"`
	Kind       string    `bun:"kind"`
	CreatedAt  time.Time `bun:"created_at"`
	User       string    `bun:"user_name"`
}

type transferMovementLineRow struct {
	bun.BaseModel `bun:"table:transfer_movement_lines,alias:tml"`

	MovementID      int64   `bun:"movement_id,pk"`
	Position        int     `bun:"position,pk"`
	LineID          int64   `bun:"line_id"`
	ArticleDetailID int64   `bun:"article_detail_id"`
	Quantity        int     `bun:"quantity"`
	WarehouseID     int64   `bun:"warehouse_id"`
	BinLocationID   int64   `bun:"bin_location_id"`
	LotNumber       *string `bun:"lot_number"`
}

type inTransitStockRow struct {
	bun.BaseModel `bun:"table:in_transit_stock,alias:its"`

	ArticleDetailID int64 `bun:"article_detail_id,pk"`
	Quantity        int64 `bun:"quantity"`
}

var transferColumns = columns{
	"transfer.id": "tf.id", "transfer.number": "tf.number", "transfer.status": "tf.status",
	"transfer.sourceWarehouseId": "tf.source_warehouse_id", "transfer.destinationWarehouseId": "tf.destination_warehouse_id",
	"transfer.createdAt": "tf.created_at",
}

type transfers struct{ s *store }

func (s *store) Transfers() ports.TransferRepository { return transfers{s} }

func (r transfers) Add(ctx context.Context, t *transfer.Transfer) error {
	r.s.saved.Transfer(t)
	lines := t.Lines()
	chosen := idsOf(lines) // the client's ids, 0 where it chose none
	id, lineIDs, err := documentIDs(ctx, r.s, "transfers", t.ID(), "transfer_lines", chosen)
	if err != nil {
		return err
	}
	row := &transferRow{ID: id, Number: t.Number(), SourceWarehouseID: t.SourceWarehouseID(),
		DestinationWarehouseID: t.DestinationWarehouseID(), Status: string(t.Status()), CreatedAt: t.CreatedAt().UTC()}
	if _, err := r.s.idb.NewInsert().Model(row).Exec(ctx); err != nil {
		if raced(err, t.ID()) {
			return errIDRaced
		}
		if isUniqueViolation(err) {
			if violatesNumber(err) {
				return transfer.ErrNumberTaken(t.Number())
			}
			return transfer.ErrIDTaken(id)
		}
		return err
	}
	rows := make([]transferLineRow, len(lines))
	for i, l := range lines {
		rows[i] = transferLineRow{ID: lineIDs[i], TransferID: id, Position: i, ArticleDetailID: l.ArticleDetailID(),
			LotNumber: l.Lot(), Quantity: l.Quantity()}
	}
	if _, err := r.s.idb.NewInsert().Model(&rows).Exec(ctx); err != nil {
		if raced(err, chosen...) {
			return errIDRaced
		}
		if isUniqueViolation(err) {
			// A concurrent insert took one of the ids the checks found free.
			return transfer.ErrLineIDTaken("lines", violatedID(err))
		}
		return err
	}
	return t.AssignIDs(id, lineIDs)
}

func (r transfers) IDTaken(ctx context.Context, id int64) (bool, error) {
	return r.s.idb.NewSelect().Table("transfers").Where("id = ?", id).Exists(ctx)
}

func (r transfers) NumberTaken(ctx context.Context, number string) (bool, error) {
	return r.s.idb.NewSelect().Table("transfers").Where("number = ?", number).Exists(ctx)
}

func (r transfers) LineIDsTaken(ctx context.Context, ids []int64) ([]int64, error) {
	taken := []int64{}
	if len(ids) == 0 {
		return taken, nil
	}
	err := r.s.idb.NewSelect().Table("transfer_lines").Column("id").
		Where("id IN (?)", bun.List(ids)).OrderExpr("id").Scan(ctx, &taken)
	return taken, err
}

// Get locks the transfer's row inside a write transaction (on SQLite the
// immediate transaction already holds the database), so that two
// shipments or receipts of one transfer run one after the other and the
// second sees what the first moved. The row is locked before the
// products, as orders are.
func (r transfers) Get(ctx context.Context, id int64) (*transfer.Transfer, error) {
	var rows []transferRow
	if err := r.s.forUpdate(r.s.idb.NewSelect().Model(&rows).Where("id = ?", id)).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFoundf("transfer %d not found", id)
	}
	out, err := r.withLines(ctx, rows)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (r transfers) List(ctx context.Context, q ports.ListQuery) (ports.Page[*transfer.Transfer], error) {
	var rows []transferRow
	total, err := page(ctx, r.s.idb, &rows, q, transferColumns, ports.TransferFields, "tf.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	if err != nil {
		return ports.Page[*transfer.Transfer]{}, err
	}
	items, err := r.withLines(ctx, rows)
	return ports.Page[*transfer.Transfer]{Total: total, Items: items}, err
}

// withLines loads the lines of the transfer rows, and their lots, in two
// queries.
func (r transfers) withLines(ctx context.Context, rows []transferRow) ([]*transfer.Transfer, error) {
	out := make([]*transfer.Transfer, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	var lines []transferLineRow
	if err := r.s.idb.NewSelect().Model(&lines).Where("transfer_id IN (?)", bun.List(ids)).
		OrderExpr("transfer_id, position").Scan(ctx); err != nil {
		return nil, err
	}
	var lots []transferLineLotRow
	if len(lines) > 0 {
		if err := r.s.idb.NewSelect().Model(&lots).
			Where("transfer_line_id IN (SELECT id FROM transfer_lines WHERE transfer_id IN (?))", bun.List(ids)).
			OrderExpr("transfer_line_id, position").Scan(ctx); err != nil {
			return nil, err
		}
	}
	ofLine := map[int64][]transfer.LotRecord{}
	for _, l := range lots {
		ofLine[l.TransferLineID] = append(ofLine[l.TransferLineID], transfer.LotRecord{Number: l.LotNumber,
			Shipped: l.Shipped, Received: l.Received, Returned: l.Returned, Lost: l.Lost})
	}
	byTransfer := make(map[int64][]transfer.LineRecord, len(rows))
	for _, l := range lines {
		byTransfer[l.TransferID] = append(byTransfer[l.TransferID], transfer.LineRecord{
			ID: l.ID, ArticleDetailID: l.ArticleDetailID, Lot: l.LotNumber, Quantity: l.Quantity, Lots: ofLine[l.ID]})
	}
	for i, row := range rows {
		t, err := transfer.UnmarshalTransferFromDatabase(row.ID, row.Number, row.SourceWarehouseID, row.DestinationWarehouseID,
			row.Status, row.CreatedAt.UTC(), byTransfer[row.ID])
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// Save writes the transfer's status and every lot record of its lines,
// one upsert by (line, lot).
func (r transfers) Save(ctx context.Context, t *transfer.Transfer) error {
	r.s.saved.Transfer(t)
	row := &transferRow{ID: t.ID(), Status: string(t.Status())}
	if _, err := r.s.idb.NewUpdate().Model(row).Column("status").WherePK().Exec(ctx); err != nil {
		return err
	}
	var rows []transferLineLotRow
	for _, l := range t.Lines() {
		for i, lot := range l.Lots() {
			rows = append(rows, transferLineLotRow{TransferLineID: l.ID(), LotNumber: lot.Number, Position: i,
				Shipped: lot.Shipped, Received: lot.Received, Returned: lot.Returned, Lost: lot.Lost})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	slices.SortFunc(rows, func(a, b transferLineLotRow) int {
		return cmp.Or(cmp.Compare(a.TransferLineID, b.TransferLineID), cmp.Compare(a.LotNumber, b.LotNumber))
	})
	_, err := r.s.idb.NewInsert().Model(&rows).On("CONFLICT (transfer_line_id, lot_number) DO UPDATE").
		Set("shipped = EXCLUDED.shipped, received = EXCLUDED.received, returned = EXCLUDED.returned, lost = EXCLUDED.lost").Exec(ctx)
	return err
}

func (r transfers) AddMovement(ctx context.Context, kind ports.TransferMovementKind, m *transfer.Movement) error {
	row := &transferMovementRow{TransferID: m.TransferID, Kind: string(kind), CreatedAt: m.CreatedAt.UTC(), User: m.User}
	if _, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return err
	}
	lines := make([]transferMovementLineRow, len(m.Lines))
	for i, l := range m.Lines {
		lines[i] = transferMovementLineRow{MovementID: row.ID, Position: i, LineID: l.LineID, ArticleDetailID: l.ArticleDetailID,
			Quantity: l.Quantity, WarehouseID: l.WarehouseID, BinLocationID: l.BinLocationID, LotNumber: optional(l.LotNumber)}
	}
	if len(lines) > 0 {
		if _, err := r.s.idb.NewInsert().Model(&lines).Exec(ctx); err != nil {
			return err
		}
	}
	m.ID = row.ID
	return nil
}

func (r transfers) Movement(ctx context.Context, kind ports.TransferMovementKind, transferID, id int64) (*transfer.Movement, error) {
	var rows []transferMovementRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("tm.id = ? AND tm.transfer_id = ? AND tm.kind = ?", id, transferID, string(kind)).
		Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFoundf("transfer %d has no %s %d", transferID, kind, id)
	}
	row := rows[0]
	var lines []transferMovementLineRow
	if err := r.s.idb.NewSelect().Model(&lines).Where("movement_id = ?", id).OrderExpr("position").Scan(ctx); err != nil {
		return nil, err
	}
	out := &transfer.Movement{ID: row.ID, TransferID: row.TransferID, CreatedAt: row.CreatedAt.UTC(), User: row.User}
	for _, l := range lines {
		ml := transfer.MovedLine{LineID: l.LineID, ArticleDetailID: l.ArticleDetailID, Quantity: l.Quantity,
			WarehouseID: l.WarehouseID, BinLocationID: l.BinLocationID}
		if l.LotNumber != nil {
			ml.LotNumber = *l.LotNumber
		}
		out.Lines = append(out.Lines, ml)
	}
	return out, nil
}

func (r transfers) NamesArticle(ctx context.Context, articleDetailID int64) (bool, error) {
	return r.s.idb.NewSelect().Table("transfer_lines").Where("article_detail_id = ?", articleDetailID).Exists(ctx)
}

func (r transfers) InTransitOf(ctx context.Context, ids []int64) (map[int64]int, error) {
	out := make(map[int64]int, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []inTransitStockRow
	if err := r.s.idb.NewSelect().Model(&rows).Where("article_detail_id IN (?) AND quantity <> 0", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.ArticleDetailID] = int(row.Quantity)
	}
	return out, nil
}

func (r transfers) KeepInTransit(ctx context.Context, inTransit map[int64]int) error {
	if len(inTransit) == 0 {
		return nil
	}
	rows := make([]inTransitStockRow, 0, len(inTransit))
	for id, n := range inTransit {
		if n < 0 {
			return fmt.Errorf("stock in transit of article detail %d would be %d", id, n)
		}
		rows = append(rows, inTransitStockRow{ArticleDetailID: id, Quantity: int64(n)})
	}
	// In id order, as every writer takes its locks.
	slices.SortFunc(rows, func(a, b inTransitStockRow) int { return cmp.Compare(a.ArticleDetailID, b.ArticleDetailID) })
	_, err := r.s.idb.NewInsert().Model(&rows).On("CONFLICT (article_detail_id) DO UPDATE").
		Set("quantity = EXCLUDED.quantity").Exec(ctx)
	return err
}
