package bunstore

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/warehouse"
)

// The bins open counts lock are read with a working set's load, after the
// products' lock (in the same pgx batch on PostgreSQL), so that a count
// that committed before the lock was granted is seen: one statement on the
// partial index of locked bins, which is empty while no count locks
// anything.

const lockedBinsSQL = `SELECT ob.bin_location_id, ob.warehouse_id, b.code, ob.count_id
FROM count_open_bins AS ob JOIN bin_locations AS b ON b.id = ob.bin_location_id
WHERE ob.locked AND ob.warehouse_id `

func warehouseIDs(warehouses []stock.KnownWarehouse) []int64 {
	ids := make([]int64, len(warehouses))
	for i, w := range warehouses {
		ids[i] = w.ID
	}
	return ids
}

// queueLockedBins adds the read of the locked bins of the warehouses to b;
// what it finds lands in out when b's results are read.
func queueLockedBins(b *pgx.Batch, warehouses []stock.KnownWarehouse, out *[]stock.Bin) {
	if len(warehouses) == 0 {
		return
	}
	b.Queue(lockedBinsSQL+"= ANY($1::bigint[])", warehouseIDs(warehouses)).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var bin stock.Bin
			if err := rows.Scan(&bin.ID, &bin.WarehouseID, &bin.Code, &bin.LockedBy); err != nil {
				return err
			}
			bin.IsNull = bin.Code == warehouse.NullBinLocationCode
			*out = append(*out, bin)
		}
		return rows.Err()
	})
}

// lockedBins reads the locked bins of the warehouses in a statement of its
// own (SQLite, and PostgreSQL outside its batched load).
func lockedBins(ctx context.Context, s *store, warehouses []stock.KnownWarehouse) ([]stock.Bin, error) {
	if len(warehouses) == 0 {
		return nil, nil
	}
	rows, err := s.idb.QueryContext(ctx, lockedBinsSQL+"?", s.inIDs(warehouseIDs(warehouses)))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []stock.Bin
	for rows.Next() {
		var bin stock.Bin
		if err := rows.Scan(&bin.ID, &bin.WarehouseID, &bin.Code, &bin.LockedBy); err != nil {
			return nil, err
		}
		bin.IsNull = bin.Code == warehouse.NullBinLocationCode
		out = append(out, bin)
	}
	return out, rows.Err()
}

// anyCount tells whether an entry names a count: other batches write no
// count column at all (NULL by default).
func anyCount(entries []stock.LedgerEntry) bool {
	for i := range entries {
		if entries[i].Ref.CountID != 0 {
			return true
		}
	}
	return false
}
